#!/usr/bin/env python3
"""Package the `tde` extension cargo has already built as a wheel, with the game data.

maturin (``pip install ./python``) builds the extension itself, with this one package's
features: in CI that would compile most of the workspace a second time. This script instead
packs the extension the workspace build left (``cargo test --workspace --release --no-run
--features tde-python/python``) into a PEP 427 wheel, with the pure-Python package, its type
stubs and the game data (``configs/``, as ``tde/configs/``, which ``tde`` uses when no other
data is found, so an install outside the repository plays). The extension is built for the
stable ABI (``abi3``, CPython 3.9 on): the wheel is tagged ``cp39-abi3-<platform>``, and
``auditwheel repair`` gives it its manylinux tag.

Usage: build_wheel.py --extension target/release/deps/lib_tde.so --out target/wheels
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import io
import os
import sys
import sysconfig
import zipfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent


def project_metadata() -> tuple[str, str, str, list[str], str]:
    """Name, version, summary, dependencies and the required Python of ``pyproject.toml``."""
    try:
        import tomllib
    except ModuleNotFoundError:  # Python < 3.11
        import tomli as tomllib  # type: ignore[no-redef]
    project = tomllib.loads((HERE / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    return (
        project["name"],
        project["version"],
        project["description"],
        list(project.get("dependencies", [])),
        project.get("requires-python", ""),
    )


def platform_tag() -> str:
    """This machine's platform as a wheel tag (``linux_x86_64``)."""
    return sysconfig.get_platform().replace("-", "_").replace(".", "_")


def record_line(name: str, data: bytes) -> str:
    """A RECORD row: the file, its urlsafe base64 SHA-256 and its size."""
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}"


def wheel_files(extension: Path) -> list[tuple[str, bytes]]:
    """Every file of the wheel but its RECORD: the package, the extension and the data."""
    files: list[tuple[str, bytes]] = []
    package = HERE / "tde"
    for path in sorted(package.rglob("*")):
        built_here = path.name.startswith("_tde.") and path.suffix == ".so"  # a local build
        if path.is_file() and "__pycache__" not in path.parts and not built_here:
            files.append((f"tde/{path.relative_to(package).as_posix()}", path.read_bytes()))
    files.append(("tde/_tde.abi3.so", extension.read_bytes()))
    configs = ROOT / "configs"
    for path in sorted(configs.rglob("*")):
        if path.is_file():
            files.append((f"tde/configs/{path.relative_to(configs).as_posix()}", path.read_bytes()))
    return files


def build(extension: Path, out: Path) -> Path:
    """Write the wheel into ``out`` (atomically) and return its path."""
    name, version, summary, dependencies, requires_python = project_metadata()
    tag = f"cp39-abi3-{platform_tag()}"
    dist_info = f"{name}-{version}.dist-info"
    metadata = [
        "Metadata-Version: 2.1",
        f"Name: {name}",
        f"Version: {version}",
        f"Summary: {summary}",
        "License: MIT",
    ]
    if requires_python:
        metadata.append(f"Requires-Python: {requires_python}")
    metadata += [f"Requires-Dist: {d}" for d in dependencies]
    wheel = ["Wheel-Version: 1.0", "Generator: tde build_wheel.py", "Root-Is-Purelib: false", f"Tag: {tag}"]
    files = wheel_files(extension)
    files.append((f"{dist_info}/METADATA", ("\n".join(metadata) + "\n").encode()))
    files.append((f"{dist_info}/WHEEL", ("\n".join(wheel) + "\n").encode()))
    record = [record_line(n, d) for n, d in files] + [f"{dist_info}/RECORD,,"]
    files.append((f"{dist_info}/RECORD", ("\n".join(record) + "\n").encode()))
    out.mkdir(parents=True, exist_ok=True)
    target = out / f"{name}-{version}-{tag}.whl"
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for file_name, data in files:
            info = zipfile.ZipInfo(file_name, date_time=(2026, 1, 1, 0, 0, 0))
            info.external_attr = (0o755 if file_name.endswith(".so") else 0o644) << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, data)
    partial = target.with_suffix(".whl.part")
    partial.write_bytes(buffer.getvalue())
    os.replace(partial, target)
    return target


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--extension", type=Path, required=True, help="the built lib_tde.so")
    parser.add_argument("--out", type=Path, default=ROOT / "target" / "wheels", help="folder for the wheel")
    args = parser.parse_args()
    if not args.extension.is_file():
        print(f"build_wheel.py: --extension {args.extension}: no such file (build it first)", file=sys.stderr)
        return 1
    print(build(args.extension, args.out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
