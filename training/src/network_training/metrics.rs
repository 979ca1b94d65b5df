//! Training metrics, written twice: TensorBoard event files (`RUN/tensorboard/`) and one JSON
//! object per line in `RUN/metrics.jsonl`, so runs can be compared in TensorBoard or read by
//! any script.

use std::io::Write;
use std::path::Path;
use tensorboard_rs::summary_writer::SummaryWriter;

/// Where a run's scalars go.
pub struct Metrics {
    board: SummaryWriter,
    jsonl: std::fs::File,
}

impl Metrics {
    /// Open (append to) the run's metric files.
    pub fn open(run: &Path) -> std::io::Result<Metrics> {
        std::fs::create_dir_all(run.join("tensorboard"))?;
        let jsonl = std::fs::OpenOptions::new().create(true).append(true).open(run.join("metrics.jsonl"))?;
        Ok(Metrics { board: SummaryWriter::new(run.join("tensorboard")), jsonl })
    }

    /// Record named scalars at `step`.
    pub fn log(&mut self, step: u64, scalars: &[(&str, f64)]) -> std::io::Result<()> {
        let mut object = serde_json::Map::new();
        object.insert("step".into(), step.into());
        for &(name, value) in scalars {
            self.board.add_scalar(name, value as f32, step as usize);
            object.insert(name.into(), serde_json::Value::from(value));
        }
        writeln!(self.jsonl, "{}", serde_json::Value::Object(object))?;
        self.jsonl.flush()?;
        self.board.flush();
        Ok(())
    }
}
