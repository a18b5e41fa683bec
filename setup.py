"""Build: every .pyx under src/romecore and src/plugins becomes an optimised extension.

The Cython kernels validate their own input, so bounds and wraparound checks are off and
the C is compiled with -O3.  ROMECORE_BUILD_ONLY=substr[,substr] limits a development
build (``python setup.py build_ext --inplace``) to matching modules.  ROMECORE_SANITIZE=1
builds with AddressSanitizer and UndefinedBehaviorSanitizer instead (-O1 -g; run Python with
the sanitizer runtimes preloaded, as ``scripts/sanitize.sh`` does).
"""

import glob
import os
import platform

from Cython.Build import cythonize
from setuptools import Extension, find_packages, setup

SRC = "src"
PLUGINS = os.path.join(SRC, "plugins")
INCLUDE = os.path.join(SRC, "romecore", "core", "include")


def module_name(path: str) -> str:
    base = PLUGINS if path.startswith(PLUGINS + os.sep) else SRC
    return os.path.splitext(os.path.relpath(path, base))[0].replace(os.sep, ".")


def extensions():
    sources = sorted(glob.glob(os.path.join(SRC, "romecore", "**", "*.pyx"), recursive=True)
                     + glob.glob(os.path.join(PLUGINS, "**", "*.pyx"), recursive=True))
    only = [s for s in os.environ.get("ROMECORE_BUILD_ONLY", "").split(",") if s]
    if only:
        sources = [p for p in sources if any(s in p for s in only)]
    flags = ["-O3", "-fno-strict-aliasing", "-Wno-unused-function"]
    if platform.machine().lower() in ("x86_64", "amd64"):
        flags.append("-mpopcnt")  # every x86-64 CPU since 2008; bitboards count bits a lot
    link = []
    if os.environ.get("ROMECORE_SANITIZE"):
        sanitize = ["-fsanitize=address,undefined", "-fno-sanitize-recover=undefined",
                    "-fno-omit-frame-pointer", "-g"]
        flags = [f for f in flags if f != "-O3"] + ["-O1"] + sanitize
        link = sanitize
    exts = [
        Extension(
            module_name(p),
            [p],
            include_dirs=[INCLUDE],
            extra_compile_args=flags,
            extra_link_args=link,
        )
        for p in sources
    ]
    return cythonize(
        exts,
        include_path=[SRC, PLUGINS],
        compiler_directives={
            # Kernels switch bounds and wraparound checks off in their own headers; the
            # Python-facing modules keep Python semantics.
            "language_level": 3,
            "embedsignature": True,
        },
        nthreads=int(os.environ.get("ROMECORE_BUILD_JOBS", "2")),
    )


plugin_packages = find_packages(PLUGINS)
package_dir = {"": SRC}
for pkg in plugin_packages:
    if "." not in pkg:
        package_dir[pkg] = os.path.join(PLUGINS, pkg)

setup(
    packages=find_packages(SRC, exclude=["plugins", "plugins.*"]) + plugin_packages,
    package_dir=package_dir,
    # stubs and headers for plugin builds, the record schema, shipped learned weights and their
    # loss curves, the web app's static page, each game's rules primer
    package_data={"": ["*.pxd", "*.pyi", "*.h", "*.json", "py.typed", "primer.md",
                       "weights/*.npz", "weights/*.png", "weights/*.md",
                       "static/*.html", "static/*.js", "static/*.css"]},
    ext_modules=extensions(),
    zip_safe=False,
)
