//! Node's resolution algorithms over a [`Files`] view: CommonJS `require` (LOAD_AS_FILE,
//! LOAD_AS_DIRECTORY, LOAD_NODE_MODULES, package self-reference, `"exports"`) and the ES
//! module resolver (PACKAGE_RESOLVE, `"exports"` / `"imports"` with their conditions and
//! subpath patterns, the legacy `"main"`), as documented in Node's `modules.md` and
//! `esm.md`. Paths are absolute and normalised (`/a/b`); everything is read through the
//! view, so the same code serves the VFS and tests.

use super::json::{parse, Json};
use super::path::{dirname, join, normalize};
use super::typescript::is_typescript;
use super::{tsconfig, Files};

/// Conditions `require` matches in `"exports"`.
pub const REQUIRE_CONDITIONS: &[&str] = &["require", "node", "node-addons"];
/// Conditions `import` matches.
pub const IMPORT_CONDITIONS: &[&str] = &["import", "node", "node-addons"];

/// A failed resolution: Node's error code and message (without the require stack).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ResolveError {
    pub code: &'static str,
    pub message: String,
}

impl ResolveError {
    fn new(code: &'static str, message: impl Into<String>) -> ResolveError {
        ResolveError { code, message: message.into() }
    }
}

type Resolved<T> = Result<T, ResolveError>;

/// What a file is to the loader.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    CommonJs,
    Module,
    Json,
    /// A native addon (`.node`): refused.
    Addon,
}

/// A parsed `package.json` and the directory holding it.
pub struct Package {
    pub dir: String,
    pub json: Json,
}

/// `dir/package.json`, parsed; `Err` for one that exists but is not valid JSON.
pub fn read_package(fs: &mut dyn Files, dir: &str) -> Resolved<Option<Package>> {
    let file = join(dir, "package.json");
    let Some(bytes) = fs.read(&file) else { return Ok(None) };
    let text = String::from_utf8_lossy(&bytes);
    match parse(&text) {
        Ok(json) => Ok(Some(Package { dir: dir.to_string(), json })),
        Err(e) => Err(ResolveError::new("ERR_INVALID_PACKAGE_CONFIG", format!("Invalid package config {file}: {e}"))),
    }
}

/// LOOKUP_PACKAGE_SCOPE: the nearest `package.json` at or above `dir`, not crossing a
/// `node_modules` folder.
pub fn package_scope(fs: &mut dyn Files, dir: &str) -> Option<Package> {
    let mut dir = dir.to_string();
    loop {
        if dir.ends_with("/node_modules") {
            return None;
        }
        if let Ok(Some(p)) = read_package(fs, &dir) {
            return Some(p);
        }
        if dir == "/" {
            return None;
        }
        dir = dirname(&dir);
    }
}

/// How `file` loads: by extension (`.mts` as `.mjs`, `.cts` as `.cjs`), then the nearest
/// package's `"type"` for `.js`, `.ts`, `.tsx` (and files without a known extension). A
/// CommonJS `.ts` file with module syntax still runs as an ES module (`typescript`).
pub fn format_of(fs: &mut dyn Files, file: &str) -> Format {
    let name = file.rsplit('/').next().unwrap_or(file);
    if name.ends_with(".mjs") || name.ends_with(".mts") {
        return Format::Module;
    }
    if name.ends_with(".cjs") || name.ends_with(".cts") {
        return Format::CommonJs;
    }
    if name.ends_with(".json") {
        return Format::Json;
    }
    if name.ends_with(".node") {
        return Format::Addon;
    }
    let module =
        package_scope(fs, &dirname(file)).is_some_and(|p| p.json.get("type").and_then(Json::as_str) == Some("module"));
    if module {
        Format::Module
    } else {
        Format::CommonJs
    }
}

fn is_relative(request: &str) -> bool {
    request == "."
        || request == ".."
        || request.starts_with("./")
        || request.starts_with("../")
        || request.starts_with('/')
}

// ---- CommonJS

/// The extensions `require` tries, in order (Module._extensions), TypeScript's last.
const EXTENSIONS: &[&str] = &[".js", ".json", ".node", ".ts", ".tsx", ".cts"];

/// The TypeScript files an import of a JavaScript name means when that file is absent
/// (`./x.js` is `./x.ts` or `./x.tsx`, `.mjs` is `.mts`, `.cjs` is `.cts`), as TypeScript
/// resolves under `nodenext` and `bundler`.
fn typescript_for(path: &str) -> Vec<String> {
    let swap = |from: &str, to: &[&str]| -> Vec<String> {
        path.strip_suffix(from).map(|stem| to.iter().map(|t| format!("{stem}{t}")).collect()).unwrap_or_default()
    };
    let mut out = swap(".js", &[".ts", ".tsx"]);
    out.extend(swap(".jsx", &[".tsx"]));
    out.extend(swap(".mjs", &[".mts"]));
    out.extend(swap(".cjs", &[".cts"]));
    out
}

/// `moduleResolution: bundler`'s guesses for a name that is not a file: the name with
/// each extension, then the directory's `index` with each.
fn bundler_guesses(path: &str) -> Vec<String> {
    const GUESS: &[&str] = &[".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs", ".json"];
    let mut out: Vec<String> = GUESS.iter().map(|e| format!("{path}{e}")).collect();
    out.extend(GUESS.iter().map(|e| join(path, &format!("index{e}"))));
    out
}

/// `require(request)` from a module in directory `from_dir`: the resolved file name.
pub fn resolve_require(fs: &mut dyn Files, request: &str, from_dir: &str) -> Resolved<String> {
    let not_found = || ResolveError::new("MODULE_NOT_FOUND", format!("Cannot find module '{request}'"));
    if request.is_empty() {
        return Err(not_found());
    }
    if is_relative(request) {
        let base = normalize(&join(from_dir, request));
        let dir_only = request.ends_with('/') || request == "." || request == "..";
        return load_file_or_directory(fs, &base, dir_only)?.ok_or_else(not_found);
    }
    if request.starts_with('#') {
        return match package_imports(fs, request, from_dir, REQUIRE_CONDITIONS)? {
            Some(path) if fs.is_file(&path) => Ok(path),
            _ => Err(not_found()),
        };
    }
    if let Some(found) = package_self(fs, request, from_dir, REQUIRE_CONDITIONS)? {
        return esm_match(fs, found);
    }
    for dir in node_modules_paths(from_dir) {
        if !fs.is_dir(&dir) {
            continue;
        }
        if let Some(found) = package_exports_in(fs, request, &dir, REQUIRE_CONDITIONS)? {
            return esm_match(fs, found);
        }
        let base = normalize(&join(&dir, request));
        if let Some(found) = load_file_or_directory(fs, &base, request.ends_with('/'))? {
            return Ok(found);
        }
    }
    Err(not_found())
}

/// RESOLVE_ESM_MATCH for require: the export target must exist.
fn esm_match(fs: &mut dyn Files, path: String) -> Resolved<String> {
    if fs.is_file(&path) {
        Ok(path)
    } else {
        Err(ResolveError::new("MODULE_NOT_FOUND", format!("Cannot find module '{path}'")))
    }
}

/// NODE_MODULES_PATHS: `dir/node_modules` for `dir` and each ancestor not itself named
/// `node_modules`, nearest first.
pub fn node_modules_paths(from_dir: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut dir = normalize(from_dir);
    loop {
        if !dir.ends_with("/node_modules") {
            out.push(join(&dir, "node_modules"));
        }
        if dir == "/" {
            return out;
        }
        dir = dirname(&dir);
    }
}

fn load_file_or_directory(fs: &mut dyn Files, base: &str, dir_only: bool) -> Resolved<Option<String>> {
    if !dir_only {
        if let Some(f) = load_as_file(fs, base) {
            return Ok(Some(f));
        }
    }
    load_as_directory(fs, base)
}

/// LOAD_AS_FILE: `x`, then `x.js`, `x.json`, `x.node` (and the TypeScript extensions);
/// a missing `x.js` may be `x.ts`.
fn load_as_file(fs: &mut dyn Files, x: &str) -> Option<String> {
    if fs.is_file(x) {
        return Some(x.to_string());
    }
    EXTENSIONS.iter().map(|ext| format!("{x}{ext}")).chain(typescript_for(x)).find(|f| fs.is_file(f))
}

/// LOAD_INDEX: `x/index.js`, `x/index.json`, `x/index.node`.
fn load_index(fs: &mut dyn Files, x: &str) -> Option<String> {
    EXTENSIONS.iter().map(|ext| join(x, &format!("index{ext}"))).find(|f| fs.is_file(f))
}

/// LOAD_AS_DIRECTORY: the package's `"main"` (as a file, then its index), else `index`.
fn load_as_directory(fs: &mut dyn Files, x: &str) -> Resolved<Option<String>> {
    if !fs.is_dir(x) {
        return Ok(None);
    }
    let main = read_package(fs, x)?.and_then(|p| p.json.get("main").and_then(Json::as_str).map(str::to_string));
    if let Some(main) = main.filter(|m| !m.is_empty()) {
        let m = normalize(&join(x, &main));
        if let Some(f) = load_as_file(fs, &m).or_else(|| load_index(fs, &m)).or_else(|| load_index(fs, x)) {
            return Ok(Some(f));
        }
        return Err(ResolveError::new(
            "MODULE_NOT_FOUND",
            format!("Cannot find module '{m}'. Please verify that the package.json has a valid \"main\" entry"),
        ));
    }
    Ok(load_index(fs, x))
}

/// Splits a bare specifier into the package name and the `"."`-prefixed subpath.
fn split_package(specifier: &str) -> Option<(&str, String)> {
    let end = if specifier.starts_with('@') {
        let slash = specifier.find('/')?;
        specifier[slash + 1..].find('/').map_or(specifier.len(), |i| slash + 1 + i)
    } else {
        specifier.find('/').unwrap_or(specifier.len())
    };
    let name = &specifier[..end];
    if name.is_empty() || name.starts_with('.') || name.contains('\\') || name.contains('%') {
        return None;
    }
    Some((name, format!(".{}", &specifier[end..])))
}

/// LOAD_PACKAGE_EXPORTS: `request` names a package under `dir` (a node_modules folder)
/// whose package.json has `"exports"`.
fn package_exports_in(fs: &mut dyn Files, request: &str, dir: &str, conditions: &[&str]) -> Resolved<Option<String>> {
    let Some((name, subpath)) = split_package(request) else { return Ok(None) };
    let Some(pkg) = read_package(fs, &join(dir, name))? else { return Ok(None) };
    match pkg.json.get("exports") {
        None | Some(Json::Null) => Ok(None),
        Some(exports) => exports_resolve(&pkg, &subpath, exports, conditions, None).map(Some),
    }
}

/// PACKAGE_SELF_RESOLVE: a package importing itself by its `"name"`.
fn package_self(fs: &mut dyn Files, request: &str, from_dir: &str, conditions: &[&str]) -> Resolved<Option<String>> {
    let Some((name, subpath)) = split_package(request) else { return Ok(None) };
    let Some(pkg) = package_scope(fs, from_dir) else { return Ok(None) };
    let exports = match pkg.json.get("exports") {
        None | Some(Json::Null) => return Ok(None),
        Some(e) => e.clone(),
    };
    if pkg.json.get("name").and_then(Json::as_str) != Some(name) {
        return Ok(None);
    }
    exports_resolve(&pkg, &subpath, &exports, conditions, None).map(Some)
}

/// PACKAGE_IMPORTS_RESOLVE: `#name` through the nearest package's `"imports"`.
fn package_imports(
    fs: &mut dyn Files,
    specifier: &str,
    from_dir: &str,
    conditions: &[&str],
) -> Resolved<Option<String>> {
    if specifier == "#" || specifier.starts_with("#/") {
        return Err(ResolveError::new(
            "ERR_INVALID_MODULE_SPECIFIER",
            format!("Invalid module \"{specifier}\" is not a valid internal imports specifier name"),
        ));
    }
    if let Some(pkg) = package_scope(fs, from_dir) {
        if let Some(imports @ Json::Object(_)) = pkg.json.get("imports") {
            if let Some(found) = imports_exports_resolve(&pkg, specifier, imports, true, conditions)? {
                return match found {
                    Target::Path(p) => Ok(Some(p)),
                    Target::Bare(bare) => Ok(Some(resolve_bare_from_imports(fs, &bare, &pkg.dir, conditions)?)),
                };
            }
        }
        return Err(ResolveError::new(
            "ERR_PACKAGE_IMPORT_NOT_DEFINED",
            format!("Package import specifier \"{specifier}\" is not defined in package {}/package.json", pkg.dir),
        ));
    }
    Err(ResolveError::new(
        "ERR_PACKAGE_IMPORT_NOT_DEFINED",
        format!("Package import specifier \"{specifier}\" is not defined"),
    ))
}

/// An `"imports"` target naming another package (`"#dep": "some-pkg/sub"`).
fn resolve_bare_from_imports(fs: &mut dyn Files, bare: &str, pkg_dir: &str, conditions: &[&str]) -> Resolved<String> {
    if conditions == REQUIRE_CONDITIONS {
        resolve_require(fs, bare, pkg_dir)
    } else {
        package_resolve(fs, bare, &join(pkg_dir, "package.json"))
    }
}

/// A resolved `"exports"` / `"imports"` target.
enum Target {
    Path(String),
    /// An `"imports"` target that is a bare package specifier.
    Bare(String),
}

/// PACKAGE_EXPORTS_RESOLVE.
fn exports_resolve(
    pkg: &Package,
    subpath: &str,
    exports: &Json,
    conditions: &[&str],
    referrer: Option<&str>,
) -> Resolved<String> {
    let pjson = join(&pkg.dir, "package.json");
    if let Json::Object(members) = exports {
        let dotted = members.iter().filter(|(k, _)| k.starts_with('.')).count();
        if dotted != 0 && dotted != members.len() {
            return Err(ResolveError::new(
                "ERR_INVALID_PACKAGE_CONFIG",
                format!("Invalid package config {pjson}. \"exports\" cannot contain some keys starting with '.' and some not."),
            ));
        }
    }
    let all_dotted = |e: &Json| matches!(e, Json::Object(m) if m.iter().all(|(k, _)| k.starts_with('.')));
    let found = if subpath == "." {
        let main = match exports {
            Json::Object(m) if all_dotted(exports) && !m.is_empty() => exports.get("."),
            other => Some(other),
        };
        match main {
            Some(target) => match target_resolve(pkg, target, None, false, conditions)? {
                Some(Target::Path(p)) => Some(p),
                _ => None,
            },
            None => None,
        }
    } else if all_dotted(exports) {
        match imports_exports_resolve(pkg, subpath, exports, false, conditions)? {
            Some(Target::Path(p)) => Some(p),
            _ => None,
        }
    } else {
        None
    };
    found.ok_or_else(|| {
        let by = referrer.map(|r| format!(" imported from {r}")).unwrap_or_default();
        if subpath == "." {
            ResolveError::new("ERR_PACKAGE_PATH_NOT_EXPORTED", format!("No \"exports\" main defined in {pjson}{by}"))
        } else {
            ResolveError::new(
                "ERR_PACKAGE_PATH_NOT_EXPORTED",
                format!("Package subpath '{subpath}' is not defined by \"exports\" in {pjson}{by}"),
            )
        }
    })
}

/// PATTERN_KEY_COMPARE as an ordering (more specific first).
fn pattern_key_order(a: &str, b: &str) -> std::cmp::Ordering {
    use std::cmp::Ordering;
    let base_a = a.find('*').map_or(0, |i| i + 1);
    let base_b = b.find('*').map_or(0, |i| i + 1);
    if base_a != base_b {
        return base_b.cmp(&base_a);
    }
    match (a.contains('*'), b.contains('*')) {
        (false, _) => return Ordering::Greater,
        (_, false) => return Ordering::Less,
        _ => {}
    }
    b.len().cmp(&a.len())
}

/// PACKAGE_IMPORTS_EXPORTS_RESOLVE.
fn imports_exports_resolve(
    pkg: &Package,
    key: &str,
    map: &Json,
    imports: bool,
    conditions: &[&str],
) -> Resolved<Option<Target>> {
    let Json::Object(members) = map else { return Ok(None) };
    if !key.contains('*') {
        if let Some(target) = map.get(key) {
            return target_resolve(pkg, target, None, imports, conditions);
        }
    }
    let mut patterns: Vec<&(String, Json)> = members.iter().filter(|(k, _)| k.matches('*').count() == 1).collect();
    patterns.sort_by(|a, b| pattern_key_order(&a.0, &b.0));
    for (pattern, target) in patterns {
        let (base, trailer) = pattern.split_once('*').unwrap_or((pattern, ""));
        let fits = trailer.is_empty() || (key.ends_with(trailer) && key.len() >= pattern.len());
        if key.starts_with(base) && key != base && fits {
            let matched = &key[base.len()..key.len() - trailer.len()];
            return target_resolve(pkg, target, Some(matched), imports, conditions);
        }
    }
    Ok(None)
}

fn bad_segments(path: &str, skip_first_dot: bool) -> bool {
    let mut segments = path.split(['/', '\\']);
    if skip_first_dot {
        segments.next();
    }
    segments.any(|s| {
        let s = s.to_ascii_lowercase();
        s.is_empty() || s == "." || s == ".." || s == "node_modules" || s.contains("%2e") || s.contains("%2f")
    })
}

/// PACKAGE_TARGET_RESOLVE; `Ok(None)` is "no match" (null or undefined in the spec).
fn target_resolve(
    pkg: &Package,
    target: &Json,
    pattern: Option<&str>,
    imports: bool,
    conditions: &[&str],
) -> Resolved<Option<Target>> {
    let invalid = |t: &str| {
        ResolveError::new(
            "ERR_INVALID_PACKAGE_TARGET",
            format!(
                "Invalid \"{}\" target \"{t}\" defined in the package config {}/package.json",
                if imports { "imports" } else { "exports" },
                pkg.dir
            ),
        )
    };
    match target {
        Json::String(t) => {
            if !t.starts_with("./") {
                if !imports || t.starts_with("../") || t.starts_with('/') || t.contains("://") {
                    return Err(invalid(t));
                }
                let bare = match pattern {
                    Some(m) => t.replace('*', m),
                    None => t.clone(),
                };
                return Ok(Some(Target::Bare(bare)));
            }
            if bad_segments(t, true) {
                return Err(invalid(t));
            }
            let resolved = normalize(&join(&pkg.dir, t));
            match pattern {
                None => Ok(Some(Target::Path(resolved))),
                Some(m) => {
                    if bad_segments(m, false) {
                        return Err(ResolveError::new(
                            "ERR_INVALID_MODULE_SPECIFIER",
                            format!("Invalid module \"{m}\" request is not a valid match in pattern \"{t}\" in {}/package.json", pkg.dir),
                        ));
                    }
                    Ok(Some(Target::Path(resolved.replace('*', m))))
                }
            }
        }
        Json::Object(members) => {
            if members.iter().any(|(k, _)| !k.is_empty() && k.bytes().all(|b| b.is_ascii_digit())) {
                return Err(ResolveError::new(
                    "ERR_INVALID_PACKAGE_CONFIG",
                    format!(
                        "Invalid package config {}/package.json. \"exports\" cannot contain numeric property keys.",
                        pkg.dir
                    ),
                ));
            }
            for (condition, value) in members {
                if condition == "default" || conditions.contains(&condition.as_str()) {
                    if let Some(found) = target_resolve(pkg, value, pattern, imports, conditions)? {
                        return Ok(Some(found));
                    }
                }
            }
            Ok(None)
        }
        Json::Array(items) => {
            let mut last = Ok(None);
            for item in items {
                match target_resolve(pkg, item, pattern, imports, conditions) {
                    Ok(Some(found)) => return Ok(Some(found)),
                    Err(e) if e.code == "ERR_INVALID_PACKAGE_TARGET" => last = Err(e),
                    Err(e) => return Err(e),
                    Ok(None) => last = Ok(None),
                }
            }
            last
        }
        Json::Null => Ok(None),
        other => Err(invalid(&format!("{other:?}"))),
    }
}

// ---- ES modules

/// ESM_RESOLVE of a relative, absolute, `file:` or bare specifier imported from the module
/// file `referrer`: the file name, which must exist and not be a directory.
pub fn resolve_import(fs: &mut dyn Files, specifier: &str, referrer: &str) -> Resolved<String> {
    let from_typescript = is_typescript(referrer);
    let bare = !is_relative(specifier) && !specifier.starts_with('#') && !specifier.contains(':');
    if from_typescript && bare {
        if let Some(found) = typescript_paths(fs, specifier, referrer) {
            return Ok(found);
        }
    }
    let path = if let Some(p) = specifier.strip_prefix("file://") {
        normalize(&percent_decode(p))
    } else if is_relative(specifier) {
        normalize(&join(&dirname(referrer), specifier))
    } else if specifier.starts_with('#') {
        match package_imports(fs, specifier, &dirname(referrer), IMPORT_CONDITIONS)? {
            Some(p) => p,
            None => return Err(module_not_found(specifier, referrer)),
        }
    } else if specifier.contains(':') && !specifier.starts_with('@') {
        return Err(ResolveError::new(
            "ERR_UNSUPPORTED_ESM_URL_SCHEME",
            format!("Only URLs with a scheme in: file, data, and node are supported by the default ESM loader. Received protocol '{}:'", specifier.split(':').next().unwrap_or("")),
        ));
    } else {
        package_resolve(fs, specifier, referrer)?
    };
    if !fs.is_file(&path) {
        if let Some(found) = typescript_for(&path).into_iter().find(|f| fs.is_file(f)) {
            return Ok(found);
        }
        if from_typescript && tsconfig::nearest(fs, &dirname(referrer)).bundler() {
            if let Some(found) = bundler_guesses(&path).into_iter().find(|f| fs.is_file(f)) {
                return Ok(found);
            }
        }
    }
    if fs.is_dir(&path) {
        // Shown as the resolved URL would be: with a slash when the specifier has one.
        let slash = specifier.ends_with('/')
            || specifier.ends_with("/.")
            || specifier.ends_with("/..")
            || specifier == "."
            || specifier == "..";
        let shown = if slash && path != "/" { format!("{path}/") } else { path.clone() };
        return Err(ResolveError::new(
            "ERR_UNSUPPORTED_DIR_IMPORT",
            format!("Directory import '{shown}' is not supported resolving ES modules imported from {referrer}"),
        ));
    }
    if !fs.is_file(&path) {
        return Err(module_not_found(&path, referrer));
    }
    Ok(path)
}

/// A bare specifier through the referrer's tsconfig: `paths` (each candidate as a file,
/// a TypeScript file for a JavaScript name, or a bundler guess), then `baseUrl`.
fn typescript_paths(fs: &mut dyn Files, specifier: &str, referrer: &str) -> Option<String> {
    let config = tsconfig::nearest(fs, &dirname(referrer));
    let mut candidates = tsconfig::paths_candidates(&config, specifier);
    if let Some(base) = &config.base_url {
        candidates.push(normalize(&join(base, specifier)));
    }
    candidates.into_iter().find_map(|c| {
        if fs.is_file(&c) {
            return Some(c);
        }
        typescript_for(&c).into_iter().chain(bundler_guesses(&c)).find(|f| fs.is_file(f))
    })
}

fn module_not_found(what: &str, referrer: &str) -> ResolveError {
    ResolveError::new("ERR_MODULE_NOT_FOUND", format!("Cannot find module '{what}' imported from {referrer}"))
}

fn percent_decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        if bytes[i] == b'%' && i + 3 <= bytes.len() {
            if let (Some(h), Some(l)) = (hex(bytes[i + 1]), hex(bytes[i + 2])) {
                out.push((h * 16 + l) as u8);
                i += 3;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// PACKAGE_RESOLVE: a bare specifier through self-reference and `node_modules`.
fn package_resolve(fs: &mut dyn Files, specifier: &str, referrer: &str) -> Resolved<String> {
    let Some((name, subpath)) = split_package(specifier) else {
        return Err(ResolveError::new(
            "ERR_INVALID_MODULE_SPECIFIER",
            format!("Invalid module \"{specifier}\" is not a valid package name imported from {referrer}"),
        ));
    };
    let from_dir = dirname(referrer);
    if let Some(pkg) = package_scope(fs, &from_dir) {
        if pkg.json.get("name").and_then(Json::as_str) == Some(name) {
            if let Some(exports) = pkg.json.get("exports").filter(|e| **e != Json::Null) {
                return exports_resolve(&pkg, &subpath, exports, IMPORT_CONDITIONS, Some(referrer));
            }
        }
    }
    for dir in node_modules_paths(&from_dir) {
        let pkg_dir = join(&dir, name);
        if !fs.is_dir(&pkg_dir) {
            continue;
        }
        let pkg = read_package(fs, &pkg_dir)?;
        if let Some(pkg) = &pkg {
            if let Some(exports) = pkg.json.get("exports").filter(|e| **e != Json::Null) {
                return exports_resolve(pkg, &subpath, exports, IMPORT_CONDITIONS, Some(referrer));
            }
        }
        if subpath == "." {
            return legacy_main(fs, &pkg_dir, pkg.as_ref(), referrer);
        }
        return Ok(normalize(&join(&pkg_dir, &subpath)));
    }
    Err(ResolveError::new("ERR_MODULE_NOT_FOUND", format!("Cannot find package '{name}' imported from {referrer}")))
}

/// LEGACY_MAIN_RESOLVE: `"main"` with CommonJS-style extension and index guesses.
fn legacy_main(fs: &mut dyn Files, pkg_dir: &str, pkg: Option<&Package>, referrer: &str) -> Resolved<String> {
    if let Some(main) = pkg.and_then(|p| p.json.get("main")).and_then(Json::as_str) {
        let m = normalize(&join(pkg_dir, main));
        let guesses = [
            m.clone(),
            format!("{m}.js"),
            format!("{m}.json"),
            format!("{m}.node"),
            join(&m, "index.js"),
            join(&m, "index.json"),
            join(&m, "index.node"),
        ];
        if let Some(found) = guesses.into_iter().find(|g| fs.is_file(g)) {
            return Ok(found);
        }
    }
    ["index.js", "index.json", "index.node"]
        .iter()
        .map(|i| join(pkg_dir, i))
        .find(|g| fs.is_file(g))
        .ok_or_else(|| module_not_found(pkg_dir, referrer))
}
