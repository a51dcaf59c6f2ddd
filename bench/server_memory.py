# Shared by the memory scripts (hll_memory.py, stream_memory.py): a server started on a port,
# fed a RESP stream with `redis-cli --pipe`, and the growth of its INFO used_memory per item.
import socket
import subprocess
import time


def cmd(*args):
    """One command in RESP, as bytes."""
    out = b"*%d\r\n" % len(args)
    for x in args:
        x = str(x).encode()
        out += b"$%d\r\n%s\r\n" % (len(x), x)
    return out


def used_memory(port):
    info = subprocess.run(["redis-cli", "-p", str(port), "info", "memory"],
                          capture_output=True, text=True).stdout
    return int([l for l in info.splitlines() if l.startswith("used_memory:")][0].split(":")[1])


def wait_up(port):
    deadline = time.time() + 10
    while time.time() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), 0.2).close()
            return
        except OSError:
            time.sleep(0.05)
    raise SystemExit("server on port %d did not start" % port)


def bytes_per_item(binary, port, data, items):
    """Starts `binary` on `port`, pipes `data` into it, returns the used_memory growth / items."""
    server = subprocess.Popen([binary, "--port", str(port), "--save", "", "--logfile", "/dev/null"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wait_up(port)
    before = used_memory(port)
    subprocess.run(["redis-cli", "-p", str(port), "--pipe"], input=data, capture_output=True)
    after = used_memory(port)
    subprocess.run(["redis-cli", "-p", str(port), "shutdown", "nosave"], capture_output=True)
    server.wait()
    return (after - before) / items
