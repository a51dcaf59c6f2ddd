#!/usr/bin/env python3
"""Runs the README's "Python, Go, Java, Node" examples as a user would paste them.

Each code block of that README section is taken as it is, wrapped in the smallest test its
language needs (a Go test function, a JUnit class, a Node script), and run against the
redlab-server of this build: the block starts the server on a free port, the wrapper talks to
it. A language whose toolchain is not on this machine is reported as skipped; any block that
fails to build or run fails the test. Exit 77 (ctest's skip) when no language could run.

usage: readme_languages_test.py README.md BIN_DIR [NODE_MODULES_DIR]
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

SECTION = "### Python, Go, Java, Node"


def blocks(readme_text):
    """The fenced code blocks of the section, by language."""
    start = readme_text.index(SECTION)
    end = readme_text.find("\n## ", start)
    section = readme_text[start:end if end != -1 else len(readme_text)]
    found = {}
    for lang, body in re.findall(r"```(\w+)\n(.*?)```", section, re.S):
        found[lang] = body
    return found


GO_WRAPPER = """package example

import (
\t"bufio"
\t"net"
\t"os"
\t"os/exec"
\t"strings"
\t"testing"
)

{block}
func TestTheServerAnswers(t *testing.T) {{
\taddr := startRedlab(t)
\tconn, err := net.Dial("tcp", addr)
\tif err != nil {{
\t\tt.Fatal(err)
\t}}
\tdefer conn.Close()
\tconn.Write([]byte("PING\\r\\n"))
\treply, _ := bufio.NewReader(conn).ReadString('\\n')
\tif reply != "+PONG\\r\\n" {{
\t\tt.Fatalf("PING answered %q", reply)
\t}}
}}
"""

JAVA_WRAPPER = """import java.io.*;
import java.net.*;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.*;
import static org.junit.jupiter.api.Assertions.assertEquals;

public class RedlabExampleTest {{
{block}
  @Test
  void theServerAnswers() throws IOException {{
    try (Socket socket = new Socket("127.0.0.1", port)) {{
      socket.getOutputStream().write("PING\\r\\n".getBytes(StandardCharsets.US_ASCII));
      BufferedReader in = new BufferedReader(
          new InputStreamReader(socket.getInputStream(), StandardCharsets.US_ASCII));
      assertEquals("+PONG", in.readLine());
    }}
  }}
}}
"""

NODE_WRAPPER = """{block}
const assert = require('node:assert');
(async () => {{
  const {{ proc, port }} = await startRedlab();
  let Redis = null;
  try {{ Redis = require('ioredis'); }} catch (e) {{ }}
  if (Redis) {{
    const r = new Redis({{ port, lazyConnect: true }});
    await r.connect();
    assert.strictEqual(await r.ping(), 'PONG');
    r.disconnect();
  }} else {{
    const reply = await new Promise((resolve, reject) => {{
      const s = require('node:net').connect(port, '127.0.0.1', () => s.write('PING\\r\\n'));
      s.on('data', (d) => {{ resolve(d.toString()); s.end(); }});
      s.on('error', reject);
    }});
    assert.strictEqual(reply, '+PONG\\r\\n');
  }}
  proc.kill();
  console.log('node example: ok' + (Redis ? ' (ioredis)' : ' (net)'));
}})().catch((e) => {{ console.error(e); process.exit(1); }});
"""


def run(cmd, cwd, env):
    print("$ " + " ".join(cmd), flush=True)
    done = subprocess.run(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True, timeout=300)
    print(done.stdout, end="", flush=True)
    return done.returncode == 0


def python_example(block, work, env):
    # Debian's python3 has python3-redis and python3-pytest (tools/install-deps.sh); a python3
    # of another installation earlier on PATH may not.
    python = "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else shutil.which("python3")
    probe = subprocess.run([python, "-c", "import redis, pytest"], capture_output=True)
    if probe.returncode != 0:
        return None, "python3 without the redis and pytest modules"
    with open(os.path.join(work, "test_redlab_example.py"), "w") as f:
        f.write(block)
    return run([python, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                "test_redlab_example.py"], work, env), ""


def go_example(block, work, env):
    if shutil.which("go") is None:
        return None, "no go on PATH"
    with open(os.path.join(work, "go.mod"), "w") as f:
        f.write("module example\n\ngo 1.19\n")
    with open(os.path.join(work, "example_test.go"), "w") as f:
        f.write(GO_WRAPPER.format(block=block))
    env = dict(env, GOCACHE=os.path.join(work, ".gocache"), GOPATH=os.path.join(work, ".gopath"),
               GOFLAGS="-mod=mod", GOPROXY="off")
    return run(["go", "test", "-count=1", "./..."], work, env), ""


def java_example(block, work, env):
    console = "/usr/share/java/junit-platform-console-standalone.jar"
    if shutil.which("javac") is None or not os.path.exists(console):
        return None, "no javac or no JUnit 5 (Debian's junit5)"
    with open(os.path.join(work, "RedlabExampleTest.java"), "w") as f:
        f.write(JAVA_WRAPPER.format(block=block))
    if not run(["javac", "-cp", console, "RedlabExampleTest.java"], work, env):
        return False, ""
    return run(["java", "-jar", console, "-cp", ".", "--select-class", "RedlabExampleTest",
                "--fail-if-no-tests", "--disable-banner",
                "--disable-ansi-colors", "--details=summary"], work, env), ""


def node_example(block, work, env, node_modules):
    if shutil.which("node") is None:
        return None, "no node on PATH"
    with open(os.path.join(work, "example.js"), "w") as f:
        f.write(NODE_WRAPPER.format(block=block))
    if node_modules:
        env = dict(env, NODE_PATH=node_modules)
    return run(["node", "example.js"], work, env), ""


def main():
    readme, bin_dir = sys.argv[1], os.path.abspath(sys.argv[2])
    node_modules = sys.argv[3] if len(sys.argv) > 3 and os.path.isdir(sys.argv[3]) else ""
    with open(readme) as f:
        code = blocks(f.read())
    env = dict(os.environ, PATH=bin_dir + os.pathsep + os.environ.get("PATH", ""))
    results = {}
    for lang, runner in (("python", python_example), ("go", go_example),
                         ("java", java_example), ("js", None)):
        if lang not in code:
            print(f"FAIL {lang}: the README section has no {lang} block")
            results[lang] = False
            continue
        with tempfile.TemporaryDirectory(prefix=f"redlab-{lang}-") as work:
            if lang == "js":
                ok, why = node_example(code[lang], work, env, node_modules)
            else:
                ok, why = runner(code[lang], work, env)
        results[lang] = ok
        print(f"{'skipped' if ok is None else 'ok' if ok else 'FAIL'} {lang} {why}".rstrip(),
              flush=True)
    if any(ok is False for ok in results.values()):
        return 1
    return 0 if any(ok for ok in results.values()) else 77


if __name__ == "__main__":
    sys.exit(main())
