"""The READMEs' pytest examples (this package's, for its registry page, and the project's) are
whole test files that pass as written, in a pytest run of their own."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
READMES = {"package": HERE.parent / "README.md", "project": HERE.parents[2] / "README.md"}


def examples_in(readme: Path) -> list[str]:
    blocks = re.findall(r"^```python\n(.*?)^```$", readme.read_text(), re.MULTILINE | re.DOTALL)
    return [b for b in blocks if "def test_" in b]


@pytest.mark.parametrize("which", sorted(READMES))
def test_the_readme_test_file_passes(
    which: str, pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    readme = READMES[which]
    if not readme.exists():
        pytest.skip(f"{readme} is not here (an sdist holds the package's README only)")
    files = examples_in(readme)
    assert len(files) == 1, f"{readme}: expected one pytest example, found {len(files)}"
    monkeypatch.delenv("PIX_SANDBOX_URL", raising=False)
    pytester.makepyfile(test_readme=files[0])
    pytester.runpytest_subprocess().assert_outcomes(passed=files[0].count("def test_"))
