//! Which device burn computes on: the CPU (burn's `flex` backend, the default and all that CI
//! needs) or a GPU, through Vulkan in a build with the `vulkan` feature (any GPU with a Vulkan
//! driver, NVIDIA's included; builds offline) or CUDA with the `cuda` feature (its build
//! downloads an LLVM bundle). With the `onnx` feature, `onnx[:THREADS]` runs the networks
//! that play (search, self-play actors, arenas, benchmarks) in ONNX Runtime on the CPU, while
//! training stays on burn's CPU backend. Chosen once per process, by the `tde` command's `--device`;
//! every network, training run and benchmark then uses it.

use burn::tensor::Device;
use std::sync::OnceLock;

/// A compute device named on the command line: `cpu`; `vulkan` (the best GPU Vulkan finds) or
/// `vulkan:N` (its N-th discrete GPU) in a build with the `vulkan` feature; `cuda` / `cuda:N`
/// in a build with the `cuda` feature; `onnx` / `onnx:THREADS` in a build with the `onnx`
/// feature.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum DeviceChoice {
    /// burn's `flex` CPU backend.
    #[default]
    Cpu,
    /// A GPU through Vulkan: the best one found (`None`) or a discrete GPU by index.
    #[cfg(feature = "vulkan")]
    Vulkan(Option<usize>),
    /// A CUDA GPU by index.
    #[cfg(feature = "cuda")]
    Cuda(usize),
    /// Inference in ONNX Runtime on the CPU, on this many threads per forward pass; training
    /// on burn's `flex` backend.
    #[cfg(feature = "onnx")]
    Onnx(usize),
}

/// The back ends a device name may ask for besides the CPU, and the build feature each needs.
const BACKENDS: [(&str, &str); 3] = [("vulkan", "vulkan"), ("cuda", "cuda"), ("onnx", "onnx")];

impl std::str::FromStr for DeviceChoice {
    type Err = String;

    fn from_str(text: &str) -> Result<DeviceChoice, String> {
        let text = text.trim();
        if text == "cpu" {
            return Ok(DeviceChoice::Cpu);
        }
        let (backend, index) = match text.split_once(':') {
            Some((backend, index)) => {
                let what = if backend == "onnx" { "thread count" } else { "GPU index" };
                let index = index.parse::<usize>().map_err(|_| {
                    format!("device `{text}`: the {what} after `{backend}:` must be a number")
                })?;
                (backend, Some(index))
            }
            None => (text, None),
        };
        let Some((_, feature)) = BACKENDS.iter().find(|(name, _)| *name == backend) else {
            return Err(format!(
                "device `{text}`: expected `cpu`, `vulkan[:N]`, `cuda[:N]` or `onnx[:THREADS]`"
            ));
        };
        match backend {
            #[cfg(feature = "vulkan")]
            "vulkan" => Ok(DeviceChoice::Vulkan(index)),
            #[cfg(feature = "cuda")]
            "cuda" => Ok(DeviceChoice::Cuda(index.unwrap_or(0))),
            #[cfg(feature = "onnx")]
            "onnx" => match index.unwrap_or(1) {
                0 => Err(format!("device `{text}`: ONNX Runtime needs at least one thread")),
                threads => Ok(DeviceChoice::Onnx(threads)),
            },
            _ => {
                let _ = index;
                Err(format!(
                    "device `{text}`: this build of tde has no {backend} backend; \
                     build it with `cargo build --release --features {feature}`"
                ))
            }
        }
    }
}

impl std::fmt::Display for DeviceChoice {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DeviceChoice::Cpu => write!(f, "cpu"),
            #[cfg(feature = "vulkan")]
            DeviceChoice::Vulkan(None) => write!(f, "vulkan"),
            #[cfg(feature = "vulkan")]
            DeviceChoice::Vulkan(Some(index)) => write!(f, "vulkan:{index}"),
            #[cfg(feature = "cuda")]
            DeviceChoice::Cuda(index) => write!(f, "cuda:{index}"),
            #[cfg(feature = "onnx")]
            DeviceChoice::Onnx(threads) => write!(f, "onnx:{threads}"),
        }
    }
}

impl DeviceChoice {
    /// burn's device for this choice.
    pub fn device(self) -> Device {
        match self {
            DeviceChoice::Cpu => Device::flex(),
            #[cfg(feature = "vulkan")]
            DeviceChoice::Vulkan(None) => Device::vulkan(burn::tensor::DeviceKind::DefaultDevice),
            #[cfg(feature = "vulkan")]
            DeviceChoice::Vulkan(Some(index)) => Device::vulkan(burn::tensor::DeviceKind::DiscreteGpu(index)),
            #[cfg(feature = "cuda")]
            DeviceChoice::Cuda(index) => Device::cuda(index),
            #[cfg(feature = "onnx")]
            DeviceChoice::Onnx(_) => Device::flex(),
        }
    }

    /// burn computes on the CPU (burn's own CPU backend, or ONNX Runtime for inference).
    fn on_cpu(self) -> bool {
        match self {
            DeviceChoice::Cpu => true,
            #[cfg(feature = "onnx")]
            DeviceChoice::Onnx(_) => true,
            #[allow(unreachable_patterns)]
            _ => false,
        }
    }
}

static CHOICE: OnceLock<DeviceChoice> = OnceLock::new();

/// Make `choice` the process's compute device, after checking that it computes (a missing GPU
/// or driver is an error here rather than a panic at the first network). The choice is made
/// once: choosing another device later is refused.
pub fn select(choice: DeviceChoice) -> Result<(), String> {
    probe(choice)?;
    let chosen = *CHOICE.get_or_init(|| choice);
    if chosen != choice {
        return Err(format!("the compute device is already {chosen}; it cannot change to {choice}"));
    }
    Ok(())
}

/// The process's compute device: the one [`select`]ed, else the CPU.
pub fn device() -> Device {
    CHOICE.get().copied().unwrap_or_default().device()
}

/// The threads of an ONNX Runtime forward pass when the networks that play run there
/// (`--device onnx[:THREADS]`), else `None`.
pub fn onnx_threads() -> Option<usize> {
    match CHOICE.get().copied().unwrap_or_default() {
        #[cfg(feature = "onnx")]
        DeviceChoice::Onnx(threads) => Some(threads),
        _ => None,
    }
}

/// The rows a batch of `n` positions is given on the process's compute device: `n` on the
/// CPU; on a GPU, which compiles and tunes its kernels for each new batch size, the next power
/// of two (the extra rows are copies, and their answers are dropped).
pub fn padded_batch(n: usize) -> usize {
    if CHOICE.get().copied().unwrap_or_default().on_cpu() {
        n
    } else {
        n.next_power_of_two()
    }
}

/// The name of the process's compute device (`cpu`, `cuda:0`), for reports.
pub fn device_name() -> String {
    CHOICE.get().copied().unwrap_or_default().to_string()
}

/// Run a tiny computation on the device and read it back; a backend that panics (no driver, no
/// such GPU) becomes an error naming the device.
fn probe(choice: DeviceChoice) -> Result<(), String> {
    #[cfg(feature = "onnx")]
    if let DeviceChoice::Onnx(_) = choice {
        return crate::network::onnx::runtime::environment()
            .map(|_| ())
            .map_err(|e| format!("device {choice}: {e}"));
    }
    if choice == DeviceChoice::Cpu {
        return Ok(());
    }
    let outcome = std::panic::catch_unwind(|| {
        use burn::tensor::{Tensor, TensorData};
        let device = choice.device();
        let x = Tensor::<1>::from_data(TensorData::new(vec![1.0f32, 2.0], [2]), &device);
        x.sum().into_data().try_to_vec::<f32>().map_err(|e| format!("{e:?}"))
    });
    match outcome {
        Ok(Ok(sum)) if sum == [3.0] => Ok(()),
        Ok(Ok(sum)) => Err(format!("device {choice}: a test sum gave {sum:?} instead of [3.0]")),
        Ok(Err(e)) => Err(format!("device {choice}: cannot read back a test tensor: {e}")),
        Err(panic) => {
            let why = panic
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_else(|| "the backend panicked".into());
            Err(format!("device {choice} is not usable: {why}"))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_cpu_and_rejects_unknown_names() {
        assert_eq!("cpu".parse::<DeviceChoice>(), Ok(DeviceChoice::Cpu));
        let err = "gpu".parse::<DeviceChoice>().unwrap_err();
        assert!(err.contains("expected `cpu`, `vulkan[:N]`, `cuda[:N]` or `onnx[:THREADS]`"), "{err}");
        let err = "cuda:x".parse::<DeviceChoice>().unwrap_err();
        assert!(err.contains("must be a number"), "{err}");
    }

    #[cfg(not(feature = "cuda"))]
    #[test]
    fn cuda_is_refused_with_how_to_build_it() {
        let err = "cuda".parse::<DeviceChoice>().unwrap_err();
        assert!(err.contains("--features cuda"), "{err}");
    }

    #[cfg(not(feature = "vulkan"))]
    #[test]
    fn vulkan_is_refused_with_how_to_build_it() {
        let err = "vulkan:1".parse::<DeviceChoice>().unwrap_err();
        assert!(err.contains("--features vulkan"), "{err}");
    }

    #[cfg(not(feature = "onnx"))]
    #[test]
    fn onnx_is_refused_with_how_to_build_it() {
        let err = "onnx:2".parse::<DeviceChoice>().unwrap_err();
        assert!(err.contains("--features onnx"), "{err}");
    }

    #[cfg(feature = "onnx")]
    #[test]
    fn onnx_takes_a_thread_count() {
        assert_eq!("onnx".parse::<DeviceChoice>(), Ok(DeviceChoice::Onnx(1)));
        assert_eq!("onnx:2".parse::<DeviceChoice>(), Ok(DeviceChoice::Onnx(2)));
        assert!("onnx:0".parse::<DeviceChoice>().unwrap_err().contains("at least one thread"));
        assert!("onnx:x".parse::<DeviceChoice>().unwrap_err().contains("thread count"));
    }

    #[test]
    fn the_default_device_is_the_cpu() {
        assert_eq!(DeviceChoice::default().to_string(), "cpu");
        assert!(select(DeviceChoice::Cpu).is_ok());
    }
}
