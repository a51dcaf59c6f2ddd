#!/usr/bin/env python3
# Bytes of used_memory per HyperLogLog in redlab-server and redis-server, same run: 2,000 keys of
# 100 elements (sparse encoding) and of 5,000 (dense). Usage: bench/hll_memory.py build/bin/redlab-server
import subprocess, sys, time, socket
def cmd(*a):
    out = b"*%d\r\n" % len(a)
    for x in a:
        x = str(x).encode(); out += b"$%d\r\n%s\r\n" % (len(x), x)
    return out
def used(port):
    r = subprocess.run(["redis-cli","-p",str(port),"info","memory"],capture_output=True,text=True).stdout
    return int([l for l in r.splitlines() if l.startswith("used_memory:")][0].split(":")[1])
def run(binary, port, n, elems):
    p = subprocess.Popen([binary,"--port",str(port),"--save","","--logfile","/dev/null"],stdout=subprocess.DEVNULL,stderr=subprocess.DEVNULL)
    time.sleep(0.5)
    before = used(port)
    data = b"".join(cmd("PFADD","hll:%d"%k,*["e%d"%i for i in range(elems)]) for k in range(n))
    subprocess.run(["redis-cli","-p",str(port),"--pipe"],input=data,capture_output=True)
    after = used(port)
    subprocess.run(["redis-cli","-p",str(port),"shutdown","nosave"],capture_output=True)
    p.wait()
    return (after-before)/n
for elems in (100, 5000):
    a = run(sys.argv[1], 17997, 2000, elems); b = run("/usr/bin/redis-server", 17998, 2000, elems)
    print("elements %d: redlab %.0f B, redis %.0f B, ratio %.2f" % (elems, a, b, a/b))
