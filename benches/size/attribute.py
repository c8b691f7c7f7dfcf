"""Attributes a linked binary's bytes to the crates they came from, from the linker's map.

Usage: attribute.py MAP BUDGET_MB ICU_BUDGET_MB. Reads every input-section line of an lld/GNU
map (`VMA LMA SIZE ALIGN path:(section)`), skips debug and symbol-table sections, and sums the
sizes per crate (the rlib or object the section came from). ICU4X counts its icu_* crates and
the zerovec family it stores data in; the engine's own Intl and Temporal code is told apart by
the section (function) name. Exits 1 when a budget is exceeded.
"""
import collections
import re
import sys

LINE = re.compile(r"^\s*[0-9a-f]+\s+[0-9a-f]+\s+([0-9a-f]+)\s+\d+\s+(\S.*?):\((\S+)\)\s*$")
CRATE = (re.compile(r"lib([A-Za-z0-9_]+)-[0-9a-f]+\.rlib"), re.compile(r"deps/([A-Za-z0-9_]+)-[0-9a-f]+\."))
ICU_DATA_FAMILY = {"zerovec", "zerotrie", "tinystr", "writeable", "litemap", "yoke", "zerofrom",
                   "potential_utf", "calendrical_calculations", "fixed_decimal", "ixdtf"}
SKIP = (".debug", ".comment", ".symtab", ".strtab")


def main(map_path, budget_mb, icu_budget_mb):
    crates, engine = collections.Counter(), collections.Counter()
    for line in open(map_path, errors="replace"):
        m = LINE.match(line)
        if not m or m.group(3).startswith(SKIP):
            continue
        size, path, section = int(m.group(1), 16), m.group(2), m.group(3)
        found = CRATE[0].search(path) or CRATE[1].search(path)
        crate = found.group(1) if found else "(C, std startup, linker)"
        crates[crate] += size
        if crate == "amber_engine":
            engine["intl" if "intl" in section else "temporal" if "temporal" in section else "rest"] += size
    total = sum(crates.values())
    icu = sum(s for c, s in crates.items() if c.startswith("icu") or c in ICU_DATA_FAMILY)
    mb = lambda n: f"{n / 1e6:6.2f} MB"
    print(f"loaded sections: {mb(total)} (budget {budget_mb} MB)")
    print(f"ICU4X crates and their data: {mb(icu)} (budget {icu_budget_mb} MB)")
    print(f"engine: Intl code {mb(engine['intl'])}, Temporal code {mb(engine['temporal'])}, the rest {mb(engine['rest'])}")
    print("largest crates:")
    for crate, size in crates.most_common(20):
        print(f"  {mb(size)}  {crate}")
    over = total > budget_mb * 1e6 or icu > icu_budget_mb * 1e6
    if over:
        print("over budget")
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], float(sys.argv[2]), float(sys.argv[3])))
