//! Image helpers shared by the games' readers: small pure functions over `image` buffers.
