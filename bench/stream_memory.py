#!/usr/bin/env python3
# Bytes of used_memory per stream entry in redlab-server and redis-server, same run: 100,000
# XADDs of a small entry (one field, one value) with `*` IDs, then of a three-field entry with
# explicit IDs. Usage: bench/stream_memory.py build/bin/redlab-server [entries]
import subprocess, sys, time, socket
def cmd(*a):
    out = b"*%d\r\n" % len(a)
    for x in a:
        x = str(x).encode(); out += b"$%d\r\n%s\r\n" % (len(x), x)
    return out
def used(port):
    r = subprocess.run(["redis-cli","-p",str(port),"info","memory"],capture_output=True,text=True).stdout
    return int([l for l in r.splitlines() if l.startswith("used_memory:")][0].split(":")[1])
def wait_up(port):
    deadline = time.time() + 10
    while time.time() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), 0.2).close(); return
        except OSError:
            time.sleep(0.05)
    raise SystemExit("server on port %d did not start" % port)
def run(binary, port, data, n):
    p = subprocess.Popen([binary,"--port",str(port),"--save","","--logfile","/dev/null"],stdout=subprocess.DEVNULL,stderr=subprocess.DEVNULL)
    wait_up(port)
    before = used(port)
    subprocess.run(["redis-cli","-p",str(port),"--pipe"],input=data,capture_output=True)
    after = used(port)
    subprocess.run(["redis-cli","-p",str(port),"shutdown","nosave"],capture_output=True)
    p.wait()
    return (after-before)/n
n = int(sys.argv[2]) if len(sys.argv) > 2 else 100000
shapes = {
    "XADD s * field value": b"".join(cmd("XADD","s","*","field","value") for _ in range(n)),
    "XADD s <i>-1 name user<i> n <i> at 2026": b"".join(
        cmd("XADD","s","%d-1" % (i+1),"name","user%d" % i,"n",i,"at",2026) for i in range(n)),
}
for name, data in shapes.items():
    a = run(sys.argv[1], 17995, data, n); b = run("/usr/bin/redis-server", 17996, data, n)
    print("%s: redlab %.1f B, redis %.1f B per entry, ratio %.2f" % (name, a, b, a/b))
