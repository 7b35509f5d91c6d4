"""This machine's addresses on its networks, for ``majiang serve --host 0.0.0.0``: the links to
share with friends, and the names the Host guard answers to.

They are read from the interfaces, not from the host's name: on most Debian and Ubuntu machines
the host name resolves through /etc/hosts to a loopback address (127.0.1.1), which no phone can
open. Linux: ``ip -j addr``, else /proc/net/fib_trie and /proc/net/if_inet6; anywhere: the address
a UDP socket would send from (a connect sends nothing) and the host name's own addresses.
"""

from __future__ import annotations

import ipaddress
import json
import os
import shutil
import socket
import subprocess

ALL_V4, ALL_V6 = ("0.0.0.0", ""), ("::",)
LOCAL_NAMES = ["127.0.0.1", "localhost", "::1"]


def shareable(addr: str) -> bool:
    """An address another machine can reach: not loopback, link-local, unspecified or multicast.

    >>> [shareable(a) for a in ("192.168.1.23", "127.0.1.1", "169.254.3.4", "fe80::1", "fd00::2", "::1")]
    [True, False, False, False, True, False]
    """
    try:
        ip = ipaddress.ip_address(addr.split("%")[0])
    except ValueError:
        return False
    return not (ip.is_loopback or ip.is_link_local or ip.is_unspecified or ip.is_multicast)


def _is_ip(text: str) -> bool:
    try:
        ipaddress.ip_address(text)
    except ValueError:
        return False
    return True


def parse_ip_json(text: str) -> list[str]:
    """The addresses in ``ip -j addr``'s output, interfaces in order.

    >>> parse_ip_json('[{"ifname": "eth0", "addr_info": [{"family": "inet", "local": "192.168.1.23"}]}]')
    ['192.168.1.23']
    """
    out = []
    for link in json.loads(text):
        for info in link.get("addr_info") or []:
            if info.get("family") in ("inet", "inet6") and isinstance(info.get("local"), str):
                out.append(info["local"])
    return out


def parse_fib_trie(text: str) -> list[str]:
    """The local IPv4 addresses in /proc/net/fib_trie (a ``/32 host LOCAL`` leaf under each).

    >>> parse_fib_trie("  |-- 10.0.0.5\\n     /32 host LOCAL\\n  |-- 10.0.0.0\\n     /24 link UNICAST\\n")
    ['10.0.0.5']
    """
    out, last = [], None
    for line in text.splitlines():
        s = line.strip()
        if s.startswith("|--"):
            last = s[3:].strip()
        elif last and s.endswith("host LOCAL") and last not in out:
            out.append(last)
    return out


def parse_if_inet6(text: str) -> list[str]:
    """The IPv6 addresses in /proc/net/if_inet6 (32 hex digits first on each line).

    >>> parse_if_inet6("fd000000000000000000000000000002 04 40 00 82     eth0\\n")
    ['fd00::2']
    """
    out = []
    for line in text.splitlines():
        word = line.split()[0] if line.split() else ""
        if len(word) == 32:
            try:
                out.append(str(ipaddress.IPv6Address(int(word, 16))))
            except ValueError:
                continue
    return out


def _read(path: str) -> str:
    try:
        with open(path, encoding="ascii", errors="replace") as f:
            return f.read()
    except OSError:
        return ""


def _from_interfaces() -> list[str]:
    ip = shutil.which("ip") or next((p for p in ("/usr/sbin/ip", "/sbin/ip") if os.path.exists(p)), None)
    if ip:
        try:
            done = subprocess.run([ip, "-j", "addr"], capture_output=True, text=True, timeout=3)
            if done.returncode == 0:
                return parse_ip_json(done.stdout)
        except (OSError, ValueError, subprocess.SubprocessError):
            pass
    return parse_fib_trie(_read("/proc/net/fib_trie")) + parse_if_inet6(_read("/proc/net/if_inet6"))


def _route_source(family: int, probe: str) -> str | None:
    """The address this machine would send from towards ``probe``: a UDP connect picks the route
    and sends nothing."""
    try:
        with socket.socket(family, socket.SOCK_DGRAM) as s:
            s.connect((probe, 9))
            return s.getsockname()[0]
    except OSError:
        return None


def _from_name() -> list[str]:
    try:
        return [str(info[4][0]) for info in socket.getaddrinfo(socket.gethostname(), None)]
    except (OSError, UnicodeError):
        return []


def machine_addresses() -> list[str]:
    """Every shareable address of this machine, the one its default route uses first (the likeliest
    to be the Wi-Fi's), then the interfaces' in order, then the host name's."""
    found: list[str] = []
    primary = [_route_source(socket.AF_INET, "10.255.255.255"), _route_source(socket.AF_INET6, "fd00::1")]
    for addr in [a for a in primary if a] + _from_interfaces() + _from_name():
        addr = addr.split("%")[0]
        if shareable(addr) and addr not in found:
            found.append(addr)
    return found


def url(addr: str, port: int) -> str:
    """
    >>> url("192.168.1.23", 8000), url("fd00::2", 8000)
    ('http://192.168.1.23:8000/', 'http://[fd00::2]:8000/')
    """
    return f"http://[{addr}]:{port}/" if ":" in addr else f"http://{addr}:{port}/"


def lan_urls(host: str, port: int, addresses: list[str] | None = None) -> list[str]:
    """The links others on the network can open: this machine's addresses when serving on all
    interfaces (IPv4 ones for 0.0.0.0; both kinds for ``::``), else the one given (none for a
    loopback one)."""
    if host not in ALL_V4 + ALL_V6:
        local = host == "localhost" or (_is_ip(host) and not shareable(host))
        return [] if local else [url(host, port)]
    addrs = machine_addresses() if addresses is None else addresses
    return [url(a, port) for a in addrs if host in ALL_V6 or ":" not in a]


def host_of(link: str) -> str:
    """
    >>> host_of("http://[fd00::2]:8000/"), host_of("http://192.168.1.23:8000/")
    ('fd00::2', '192.168.1.23')
    """
    netloc = link.split("//", 1)[1].split("/", 1)[0]
    return netloc.rsplit(":", 1)[0].strip("[]")


def allowed_hosts(host: str, share: list[str], extra: list[str] | None = None) -> list[str]:
    """The names the Host guard answers to: this machine's own (loopback, the host's name, and its
    ``.local`` name for mDNS), the address listened on, the addresses shared, and ``--allowed-host``."""
    name = socket.gethostname()
    names = LOCAL_NAMES + [host, name, f"{name}.local"] + [host_of(u) for u in share] + list(extra or [])
    return [n for n in dict.fromkeys(names) if n]
