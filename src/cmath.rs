//! The C maths functions the program's code calls: `sincos` and `hypot` (std's `f64`
//! methods, in the readers and the planner) and `pow` (the progress bar's rate estimate).
//! Defined here from the pure-Rust `libm` crate, the linker resolves them to these before the
//! system's `libm.so`, which no binary then loads: mapping and binding that library costs a
//! short process about 0.2 ms of CPU, an eighth of a 5×5 `solve` (docs/start-up.md). One
//! implementation also gives every binary the same results to the last bit.

/// `sin` and `cos` of `x` at once: LLVM joins a `sin` and a `cos` of the same value into it.
///
/// # Safety
/// `sin` and `cos` point to writable `f64`s, as the C function asks.
#[no_mangle]
unsafe extern "C" fn sincos(x: f64, sin: *mut f64, cos: *mut f64) {
    let (s, c) = libm::sincos(x);
    // SAFETY: the caller hands two valid out-pointers (the C contract LLVM's call keeps).
    unsafe {
        *sin = s;
        *cos = c;
    }
}

#[no_mangle]
extern "C" fn hypot(x: f64, y: f64) -> f64 {
    libm::hypot(x, y)
}

#[no_mangle]
extern "C" fn pow(x: f64, y: f64) -> f64 {
    libm::pow(x, y)
}

#[cfg(test)]
mod tests {
    /// std's methods reach the functions above; each agrees with its definition.
    #[test]
    fn std_maths_agrees_with_the_definitions() {
        for &x in &[0.0, 0.3, 1.0, -2.5, 10.0, 1e-9] {
            let (s, c) = f64::sin_cos(x);
            assert!((s - x.sin()).abs() < 1e-15 && (c - x.cos()).abs() < 1e-15);
            assert!((s * s + c * c - 1.0).abs() < 1e-12);
            assert!((f64::hypot(x, 4.0) - (x * x + 16.0).sqrt()).abs() < 1e-12);
            assert!((f64::powf(x.abs(), 1.5) - x.abs() * x.abs().sqrt()).abs() < 1e-12);
        }
    }
}
