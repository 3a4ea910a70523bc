import subprocess
import sys


def test_python_dash_m_villa_runs():
    result = subprocess.run([sys.executable, "-m", "villa", "--version"], capture_output=True, text=True)
    assert result.returncode == 0
    assert "villa-paletti" in result.stdout


def test_the_dedicated_server_says_how_it_is_used():
    result = subprocess.run([sys.executable, "-m", "villa.app.dedicated", "--help"], capture_output=True, text=True)
    assert result.returncode == 0
    assert "villa-paletti-server" in result.stdout and "--port" in result.stdout
