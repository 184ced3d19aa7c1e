//! The max-flow toolkit under the searches, kept apart from the searches themselves: the
//! island network whose unit flow counts the walls still needed ([`island`]), the Lagrangian
//! closure network with its warm flow ([`closure`]) and the Boykov–Kolmogorov algorithm it
//! runs ([`boykov_kolmogorov`]), both networks' arc arrays built by one builder ([`arcs`]).

mod arcs;
mod boykov_kolmogorov;
pub(super) mod closure;
pub(super) mod island;
