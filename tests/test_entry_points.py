import subprocess
import sys


def test_python_dash_m_villa_runs():
    result = subprocess.run([sys.executable, "-m", "villa", "--version"], capture_output=True, text=True)
    assert result.returncode == 0
    assert "villa-paletti" in result.stdout
