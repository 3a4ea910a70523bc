"""What the game reads of a router's answers, without a router: a device description, SOAP answers and errors, an
HTTP answer sent in chunks, where each system says its default gateway, and which outside addresses friends
cannot reach. (`test_home_router.py` asks a real router.)"""

from __future__ import annotations

import socket
import threading

import pytest

from villa.online.router import http
from villa.online.router.gateway import gateway_in_proc_route, gateway_in_route_get, gateway_in_route_print
from villa.online.router.igd import Gateway, UpnpError, call, gateway
from villa.online.router.mapping import reachable_from_outside

DESCRIPTION = """<?xml version="1.0"?>
<root xmlns="urn:schemas-upnp-org:device-1-0"><URLBase>http://192.168.1.1:5000</URLBase><device>
<deviceType>urn:schemas-upnp-org:device:InternetGatewayDevice:1</deviceType><serviceList>
<service><serviceType>urn:schemas-upnp-org:service:Layer3Forwarding:1</serviceType>
<controlURL>/ctl/L3F</controlURL></service></serviceList><deviceList><device><deviceList><device>
<serviceList><service><serviceType>urn:schemas-upnp-org:service:WANPPPConnection:1</serviceType>
<serviceId>urn:upnp-org:serviceId:WANPPPConn1</serviceId><controlURL>/ctl/PPP&amp;x=1</controlURL>
</service></serviceList></device></deviceList></device></deviceList></device></root>"""

FAULT = """<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body><s:Fault>
<faultcode>s:Client</faultcode><faultstring>UPnPError</faultstring><detail>
<UPnPError xmlns="urn:schemas-upnp-org:control-1-0"><errorCode>718</errorCode>
<errorDescription>ConflictInMappingEntry</errorDescription></UPnPError></detail></s:Fault></s:Body></s:Envelope>"""


class OneAnswer:
    """A web server on loopback that answers one request with `raw` bytes and keeps what it was asked."""

    def __init__(self, raw: bytes) -> None:
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.asked = b""
        self.thread = threading.Thread(target=self._serve, args=(raw,), daemon=True)
        self.thread.start()

    def _serve(self, raw: bytes) -> None:
        connection, _ = self.listener.accept()
        with connection:
            connection.settimeout(3)
            while b"\r\n\r\n" not in self.asked:
                self.asked += connection.recv(65536)
            head, _, body = self.asked.partition(b"\r\n\r\n")
            length = int(dict(line.split(b": ", 1) for line in head.split(b"\r\n")[1:])[b"Content-Length"])
            while len(body) < length:
                body += connection.recv(65536)
            self.asked = head + b"\r\n\r\n" + body
            connection.sendall(raw)
        self.listener.close()


def answer(status: str, body: str, chunked: bool = False) -> bytes:
    data = body.encode()
    if chunked:
        parts = [data[i:i + 100] for i in range(0, len(data), 100)]
        return (f"HTTP/1.1 {status}\r\nTransfer-Encoding: chunked\r\n\r\n".encode()
                + b"".join(f"{len(p):x}\r\n".encode() + p + b"\r\n" for p in parts) + b"0\r\n\r\n")
    return f"HTTP/1.1 {status}\r\nContent-Length: {len(data)}\r\n\r\n".encode() + data


@pytest.mark.parametrize("chunked", [False, True])
def test_the_wan_connection_is_found_in_a_device_description_however_deep(chunked):
    router = OneAnswer(answer("200 OK", DESCRIPTION, chunked))
    found = gateway(f"http://127.0.0.1:{router.port}/rootDesc.xml")
    assert found == Gateway("http://192.168.1.1:5000/ctl/PPP&x=1", "urn:schemas-upnp-org:service:WANPPPConnection:1",
                            "127.0.0.1")
    assert router.asked.startswith(b"GET /rootDesc.xml HTTP/1.1\r\n")


def test_a_soap_action_says_its_arguments_and_a_refusal_comes_back_with_the_routers_code():
    router = OneAnswer(answer("500 Internal Server Error", FAULT))
    control = Gateway(f"http://127.0.0.1:{router.port}/ctl/IPConn", "urn:schemas-upnp-org:service:WANIPConnection:1",
                      "127.0.0.1")
    with pytest.raises(UpnpError) as told:
        call(control, "AddPortMapping", {"NewExternalPort": 47170, "NewPortMappingDescription": "Villa & co"})
    assert told.value.code == 718
    asked = router.asked.decode()
    assert 'SOAPAction: "urn:schemas-upnp-org:service:WANIPConnection:1#AddPortMapping"' in asked
    assert "<NewExternalPort>47170</NewExternalPort>" in asked and "Villa &amp; co" in asked


def test_xml_text_is_read_with_its_entities_and_namespaces():
    assert http.element('<m:NewExternalIPAddress xmlns:m="x">203.0.113.9</m:NewExternalIPAddress>',
                        "NewExternalIPAddress") == "203.0.113.9"
    assert http.unescape("a&amp;b&#33;&#x41;&bogus;&#xFFFFFFF;") == "a&b!A&bogus;&#xFFFFFFF;"
    assert http.element("<a>1</a>", "b") is None


def test_an_answer_that_is_no_http_is_an_error():
    router = OneAnswer(b"SSH-2.0-OpenSSH_9.2\r\n\r\n")
    with pytest.raises(http.HttpError):
        http.request(f"http://127.0.0.1:{router.port}/")


def test_the_default_gateway_as_linux_macos_and_windows_say_it():
    linux = ("Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask\n"
             "eth0\t0001A8C0\t00000000\t0001\t0\t0\t0\t00FFFFFF\n"
             "eth0\t00000000\t0101A8C0\t0003\t0\t0\t0\t00000000\n")
    assert gateway_in_proc_route(linux) == "192.168.1.1"
    assert gateway_in_proc_route(linux.splitlines()[0]) is None
    macos = "   route to: default\ndestination: default\n       mask: default\n    gateway: 10.0.1.1\n  interface: en0\n"
    assert gateway_in_route_get(macos) == "10.0.1.1"
    windows = ("IPv4 Route Table\n===\nActive Routes:\nNetwork Destination        Netmask          Gateway       "
               "Interface  Metric\n          0.0.0.0          0.0.0.0     192.168.178.1   192.168.178.20     25\n")
    assert gateway_in_route_print(windows) == "192.168.178.1"


def test_an_outside_address_behind_another_router_is_told_from_a_public_one():
    assert reachable_from_outside("81.2.69.1") and reachable_from_outside("2001:db8::1")
    for private in ("10.1.2.3", "100.64.0.7", "192.168.0.2", "172.20.0.1", "0.0.0.0", None, "nonsense"):
        assert not reachable_from_outside(private), private
