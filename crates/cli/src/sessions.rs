//! `amber sessions`, `amber export NAME -o FILE`, `amber import FILE`, `amber delete NAME`,
//! `amber gc`.

use std::path::PathBuf;

use amber_store::Store;
use clap::Args;

use amber::durable::store::{BlobSweep, BLOB_GRACE_MS};

use crate::database::{store_failure, DatabaseArg};
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
pub struct DeleteArgs {
    /// The session.
    name: String,
    /// Blobs only this session named go with it if they were stored longer ago than this
    /// (default one hour: a younger one may be another run's, about to be named; `amber gc`
    /// takes it later).
    #[arg(long = "grace-ms", value_name = "MS", default_value_t = BLOB_GRACE_MS)]
    grace_ms: u64,
}

#[derive(Args)]
pub struct GcArgs {
    /// Keep unnamed blobs stored less than this long ago (default one hour): a run or a
    /// server's slice stores blobs just before the records that name them.
    #[arg(long = "grace-ms", value_name = "MS", default_value_t = BLOB_GRACE_MS)]
    grace_ms: u64,
    #[command(flatten)]
    database: DatabaseArg,
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

/// `amber delete NAME`: the session's rows, and the blobs only it named (docs/durability.md,
/// "Blob collection"). Refused while a process runs it or forks share its history.
pub fn delete(args: DeleteArgs, location: &StoreLocation) -> CliResult<u8> {
    let store = location
        .open_existing()?
        .ok_or_else(|| Failure::usage(format!("no session {:?}: there is no session store here", args.name)))?;
    let cutoff = crate::time::now_ms().saturating_sub(args.grace_ms);
    // A server's programs (`amber serve` on this store) name blobs too.
    let swept = store.delete_keeping(&args.name, cutoff, &amber_store::sqlite_program_blobs)?;
    errln!("amber: deleted session {}; {}", args.name, describe(&swept));
    Ok(exit::OK)
}

/// `amber gc`: removes the blobs nothing names that were stored before the grace period, from
/// the local store or (with --database) the PostgreSQL store servers share, while they run.
pub fn gc(args: GcArgs, location: &StoreLocation) -> CliResult<u8> {
    let cutoff = crate::time::now_ms().saturating_sub(args.grace_ms);
    let swept = match args.database.open()? {
        Some(store) => store.collect_blobs(cutoff).map_err(store_failure)?,
        None => {
            let Some(store) = location.open_existing()? else { return Ok(exit::OK) };
            store.collect_blobs_keeping(cutoff, &amber_store::sqlite_program_blobs)?
        }
    };
    errln!("amber: {}", describe(&swept));
    Ok(exit::OK)
}

fn describe(swept: &BlobSweep) -> String {
    let mut text = format!("removed {} blobs ({} bytes)", swept.removed, swept.bytes);
    if swept.young > 0 {
        text.push_str(&format!("; kept {} unnamed blobs younger than the grace period", swept.young));
    }
    text
}
