//! `amber sessions`, `amber export NAME -o FILE`, `amber import FILE`.

use std::path::PathBuf;

use clap::Args;

use crate::database::DatabaseArg;
use crate::error::{CliResult, Failure};
use crate::exit;
use crate::store::StoreLocation;
use crate::time::iso;

#[derive(Args)]
pub struct ExportArgs {
    /// The session.
    name: String,
    /// The file to write.
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    output: PathBuf,
}

#[derive(Args)]
pub struct ImportArgs {
    /// An export file.
    file: PathBuf,
    /// Import under this name instead of the exported one.
    #[arg(long = "as", value_name = "NAME")]
    rename: Option<String>,
}

#[derive(Args)]
pub struct ListArgs {
    #[command(flatten)]
    database: DatabaseArg,
}

pub fn list(args: ListArgs, location: &StoreLocation) -> CliResult<u8> {
    // (name, status, updated ms, entry) of each session, oldest first.
    let rows: Vec<(String, &'static str, u64, String)> = match args.database.open()? {
        Some(store) => crate::database::all_sessions(&store)?
            .into_iter()
            .map(|s| (s.id, s.status.name(), s.updated_ms, s.spec.entry))
            .collect(),
        None => {
            let Some(store) = location.open_existing()? else { return Ok(exit::OK) };
            store.list_sessions()?.into_iter().map(|s| (s.name, s.status.name(), s.updated_ms, s.entry)).collect()
        }
    };
    if rows.is_empty() {
        return Ok(exit::OK);
    }
    let width = rows.iter().map(|s| s.0.len()).max().unwrap_or(4).max(4);
    outln!("{:<width$}  {:<9}  {:<24}  ENTRY", "NAME", "STATUS", "UPDATED");
    for (name, status, updated_ms, entry) in rows {
        outln!("{:<width$}  {:<9}  {:<24}  {}", name, status, iso(updated_ms), entry);
    }
    Ok(exit::OK)
}

pub fn export(args: ExportArgs, location: &StoreLocation) -> CliResult<u8> {
    let store = location
        .open_existing()?
        .ok_or_else(|| Failure::usage(format!("no session {:?}: there is no session store here", args.name)))?;
    let bytes = store.export(&args.name)?;
    crate::atomic::write_atomically(&args.output, &bytes, None)
        .map_err(|e| Failure::usage(format!("cannot write {}: {e}", args.output.display())))?;
    errln!("amber: exported session {} to {} ({} bytes)", args.name, args.output.display(), bytes.len());
    Ok(exit::OK)
}

pub fn import(args: ImportArgs, location: &StoreLocation) -> CliResult<u8> {
    let bytes =
        std::fs::read(&args.file).map_err(|e| Failure::usage(format!("cannot read {}: {e}", args.file.display())))?;
    let store = location.open()?;
    // One transaction: a crash before it commits leaves no session, after it the whole one.
    crate::fault::point();
    let meta = store.import(&bytes, args.rename.as_deref())?;
    crate::fault::point();
    errln!("amber: imported session {} ({})", meta.name, meta.status.name());
    Ok(exit::OK)
}
