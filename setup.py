"""The native core's build (everything else about the package is in pyproject.toml).

``airships_env.native._core`` is plain C11 with the CPython C API and the buffer protocol: it
needs a C compiler and Python's headers, nothing else (no numpy headers, no C++ toolchain, no
download). ``pip install -e .`` (what ``make venv`` runs) builds it in place.
"""

from pathlib import Path

from setuptools import Extension, setup

SOURCE = Path("airships_env/native/src")

setup(
    ext_modules=[
        Extension(
            "airships_env.native._core",
            sources=[
                str(SOURCE / name)
                for name in (
                    "rng.c",
                    "cards.c",
                    "odds.c",
                    "rules.c",
                    "obs.c",
                    "bots.c",
                    "airships_search.c",
                    "batch.c",
                    "module.c",
                    "clockwork.c",
                    "clockwork_obs.c",
                    "clockwork_bots.c",
                    "clockwork_view.c",
                    "clockwork_search.c",
                    "gsearch.c",
                    "gsearch_binding.c",
                    "gnet.c",
                    "gnet_binding.c",
                    "gbatch.c",
                    "clockwork_batch.c",
                    "clockwork_module.c",
                    "args.c",
                    "australia.c",
                    "australia_obs.c",
                    "australia_bots.c",
                    "australia_view.c",
                    "australia_search.c",
                    "australia_batch.c",
                    "australia_module.c",
                    "nippon.c",
                    "nippon_obs.c",
                    "nippon_bots.c",
                    "nippon_view.c",
                    "nippon_search.c",
                    "nippon_batch.c",
                    "nippon_module.c",
                )
            ],
            depends=[
                str(SOURCE / name)
                for name in (
                    "core.h",
                    "rng.h",
                    "binding.h",
                    "gsearch.h",
                    "gsearch_binding.h",
                    "gnet.h",
                    "gbatch.h",
                    "clockwork.h",
                    "clockwork_binding.h",
                    "args.h",
                    "australia.h",
                    "australia_binding.h",
                    "gsearch.h",
                    "nippon.h",
                    "gsearch.h",
                    "nippon_binding.h",
                )
            ],
            extra_compile_args=[
                "-O3",
                "-std=c11",
                "-ffp-contract=off",  # no fused multiply-add: the same bits as Python's floats
                "-Wall",
                "-Wextra",
                "-Wno-missing-field-initializers",
                "-Wno-unused-parameter",
            ],
            libraries=["m"],
        )
    ]
)
