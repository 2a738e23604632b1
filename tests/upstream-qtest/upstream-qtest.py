#!/usr/bin/env python3
"""Upstream QEMU 7.2's own qtest programs, run against this tree's binary.

    upstream-qtest.py --binary build/qemu-system-x86_64 \\
        --expected tests/upstream-qtest/expected-failures.txt [options]

Nothing of upstream's is kept in this tree.  The script works in a scratch
folder outside it ($UPSTREAM_QTEST_DIR, else /var/cache/qemu-kvm-pv/
upstream-qtest, else ~/.cache/qemu-kvm-pv/upstream-qtest):

  1. fetch: asks apt, with a private configuration (deb-src lines for
     bookworm and bookworm-security, its own lists and cache: /etc/apt is
     not touched), for the source package of the installed
     qemu-system-x86 (`apt-get source --download-only`), keeps only the
     orig tarball and throws the Debian revision's files away;
  2. build: unpacks it and builds only the qtest programs of PROGRAMS
     (and what they link: libqtest, libqos, libqemuutil) with upstream's
     configure, meson and ninja, unpatched;
  3. run: lists each program's subtests (GTest `-l`), runs each one in a
     process of its own (`-p PATH`) with a timeout, and prints TAP.

Steps 1 and 2 are cached, keyed on the orig tarball (every Debian revision
of 7.2+dfsg has the same one): a second run costs no network and a ninja
no-op.  Expected failures (tests/upstream-qtest/expected-failures.txt) come
out as `not ok # TODO reason`; a listed subtest that passes, or a listed
one that no program has, is an error, so the list only shrinks.
"""

import argparse
import concurrent.futures
import fcntl
import hashlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

# The programs, in the order they run.  mode `slow` is GTest's -m slow:
# the programs that iterate machine types then take all of them instead of
# the newest of each family (and device-introspect-test adds the
# nodefaults cases); each slow list holds every quick subtest too.
# Column `why`: "issue 12" is the list that must pass eventually.
PROGRAMS = [
    # program,                 mode,    timeout (s) per subtest, why
    ("qom-test",               "slow",  60, "issue 12"),
    ("qmp-test",               "quick", 60, "issue 12"),
    ("qmp-cmd-test",           "quick", 60, "issue 12"),
    ("machine-none-test",      "quick", 60, "issue 12"),
    ("test-hmp",               "slow",  60, "issue 12"),
    ("device-introspect-test", "slow",  60, "issue 12"),
    ("cpu-plug-test",          "slow",  60, "issue 12"),
    ("rtc-test",               "quick", 60, "issue 12"),
    ("i440fx-test",            "quick", 60, "issue 12, but for the "
                                            "firmware cases"),
    ("q35-test",               "quick", 60, "issue 12"),
    ("pvpanic-test",           "quick", 60, "issue 12"),
    ("endianness-test",        "quick", 60, "issue 12"),
    ("numa-test",              "quick", 60, "issue 12"),
    ("readconfig-test",        "quick", 60, "issue 12"),
    ("fw_cfg-test",            "quick", 60, "issue 12"),
    ("test-x86-cpuid-compat",  "quick", 60, "the CPU model side, "
                                            "board-independent"),
]

SUITES = ["deb-src http://deb.debian.org/debian bookworm main",
          "deb-src http://deb.debian.org/debian-security bookworm-security "
          "main"]
KEYRING = "/usr/share/keyrings/debian-archive-keyring.gpg"

# upstream's configure: x86_64 only, every optional feature off (the test
# programs need none), no documentation, tools or guest agent.  The orig
# tarball lacks the EDK2 blobs (Debian removes them), so bzip2 is made
# unfindable through a meson native file: pc-bios/meson.build then does not
# ask for them, and the source stays as upstream shipped it.
CONFIGURE_ARGS = ["--target-list=x86_64-softmmu",
                  "--with-git-submodules=ignore",
                  "--without-default-features",
                  "--disable-docs", "--disable-tools",
                  "--disable-guest-agent", "--disable-install-blobs",
                  "--disable-werror", "--disable-debug-info"]
NATIVE_FILE = "[binaries]\nbzip2 = 'no-such-bzip2'\n"


class HarnessError(Exception):
    """A step before the tests could not be done (fetch, unpack, build)."""


def say(msg):
    """A TAP comment line: progress and diagnostics."""
    for line in str(msg).splitlines() or [""]:
        print(f"# {line}", flush=True)


def scratch_dir():
    d = os.environ.get("UPSTREAM_QTEST_DIR")
    if d:
        return os.path.abspath(d)
    d = "/var/cache/qemu-kvm-pv/upstream-qtest"
    try:
        os.makedirs(d, exist_ok=True)
        if os.access(d, os.W_OK):
            return d
    except OSError:
        pass
    cache = os.environ.get("XDG_CACHE_HOME",
                           os.path.expanduser("~/.cache"))
    return os.path.join(cache, "qemu-kvm-pv", "upstream-qtest")


def run_logged(cmd, log, **kw):
    """Runs cmd with its output appended to log; raises on failure with the
    tail of that log."""
    with open(log, "a") as f:
        f.write(f"$ {' '.join(cmd)}\n")
        f.flush()
        r = subprocess.run(cmd, stdout=f, stderr=subprocess.STDOUT,
                           stdin=subprocess.DEVNULL, **kw)
    if r.returncode != 0:
        with open(log, errors="replace") as f:
            tail = f.readlines()[-25:]
        raise HarnessError(f"{' '.join(cmd[:3])}... failed (exit "
                           f"{r.returncode}); end of {log}:\n"
                           + "".join(tail))


def installed_version():
    r = subprocess.run(["dpkg-query", "-W", "-f=${Version}",
                        "qemu-system-x86"], capture_output=True, text=True)
    if r.returncode != 0 or not r.stdout:
        raise HarnessError("qemu-system-x86 is not installed "
                           "(scripts/install-deps.sh --tests installs it); "
                           "its version names the source package to fetch")
    version = r.stdout.strip()
    if not upstream_part(version).startswith("7.2+"):
        raise HarnessError(f"qemu-system-x86 is {version}, not Debian 12's "
                           f"QEMU 7.2: the expected-failure list is 7.2's")
    return version


def upstream_part(version):
    """1:7.2+dfsg-7+deb12u18+b3 -> 7.2+dfsg (the orig tarball's version)."""
    v = version.split(":", 1)[-1]
    return v.rsplit("-", 1)[0]


class Apt:
    """apt-get and apt-cache with a private configuration under d."""

    def __init__(self, d, log):
        self.d = d
        self.log = log
        os.makedirs(os.path.join(d, "lists", "partial"), exist_ok=True)
        os.makedirs(os.path.join(d, "cache", "archives", "partial"),
                    exist_ok=True)
        with open(os.path.join(d, "sources.list"), "w") as f:
            for s in SUITES:
                kind, rest = s.split(" ", 1)
                f.write(f"{kind} [signed-by={KEYRING}] {rest}\n")
        self.opts = ["-o", f"Dir::Etc::SourceList={d}/sources.list",
                     "-o", "Dir::Etc::SourceParts=-",
                     "-o", f"Dir::State::Lists={d}/lists",
                     "-o", f"Dir::Cache={d}/cache"]
        if os.getuid() == 0:
            # the files are root's: apt's _apt user could not write them
            self.opts += ["-o", "APT::Sandbox::User=root"]

    def update(self):
        run_logged(["apt-get", *self.opts, "-q", "update"], self.log)

    def source_versions(self):
        r = subprocess.run(["apt-cache", *self.opts, "showsrc", "qemu"],
                           capture_output=True, text=True)
        return re.findall(r"^Version: (\S+)$", r.stdout, re.M)

    def download_source(self, version, where):
        run_logged(["apt-get", *self.opts, "-q", "source",
                    "--download-only", f"qemu={version}"], self.log,
                   cwd=where)


def fetch(scratch, version):
    """The orig tarball of the installed QEMU's source package, from cache
    or from Debian's archive.  Returns its path."""
    up = upstream_part(version)
    dl = os.path.join(scratch, "dl")
    orig = os.path.join(dl, f"qemu_{up}.orig.tar.xz")
    stamp = orig + ".sha256"
    if os.path.exists(stamp) and os.path.exists(orig):
        with open(stamp) as f:
            want = f.read().split()[0]
        if sha256(orig) == want:
            say(f"fetch: cached {orig}")
            return orig
    os.makedirs(dl, exist_ok=True)
    log = os.path.join(scratch, "fetch.log")
    apt = Apt(os.path.join(scratch, "apt"), log)
    say(f"fetch: apt-get update (deb-src, private lists), log {log}")
    apt.update()
    # The binary package may carry a binNMU suffix (+b3) the source lacks;
    # a revision the archive no longer has shares the orig tarball with
    # the ones it has.
    src = re.sub(r"\+b\d+$", "", version)
    have = apt.source_versions()
    if src not in have:
        same = [v for v in have if upstream_part(v) == up]
        if not same:
            raise HarnessError(f"no qemu source package with upstream "
                               f"version {up} in {SUITES} (have: {have})")
        say(f"fetch: {src} is not in the archive any more; {same[0]} has "
            f"the same orig tarball")
        src = same[0]
    tmp = tempfile.mkdtemp(dir=dl)
    try:
        say(f"fetch: apt-get source --download-only qemu={src}")
        apt.download_source(src, tmp)
        got = os.path.join(tmp, os.path.basename(orig))
        if not os.path.exists(got):
            raise HarnessError(f"apt-get source gave {os.listdir(tmp)}, "
                               f"not {os.path.basename(orig)}")
        dsc = [f for f in os.listdir(tmp) if f.endswith(".dsc")]
        digest = sha256(got)
        with open(os.path.join(tmp, dsc[0])) as f:
            if digest not in f.read():
                raise HarnessError(f"{got}: sha256 {digest} is not the "
                                   f"one {dsc[0]} names")
        os.replace(got, orig)
        with open(stamp, "w") as f:
            f.write(f"{digest}  from qemu {src}\n")
    finally:
        # only the orig tarball is kept: no Debian patch is applied
        shutil.rmtree(tmp)
    return orig


def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def unpack(scratch, orig):
    """The unpacked source, once per tarball; returns its top folder."""
    key = os.path.basename(orig)[:-len(".orig.tar.xz")]
    top = os.path.join(scratch, "src", key)
    stamp = os.path.join(top, ".unpacked")
    if not os.path.exists(stamp):
        say(f"unpack: {orig}")
        shutil.rmtree(top, ignore_errors=True)
        tmp = top + ".tmp"
        shutil.rmtree(tmp, ignore_errors=True)
        os.makedirs(tmp)
        r = subprocess.run(["tar", "-xJf", orig, "-C", tmp])
        if r.returncode != 0:
            raise HarnessError(f"tar could not unpack {orig}")
        os.replace(tmp, top)
        with open(stamp, "w") as f:
            f.write(orig + "\n")
    dirs = [d for d in os.listdir(top)
            if os.path.isfile(os.path.join(top, d, "configure"))]
    if len(dirs) != 1:
        raise HarnessError(f"{top}: expected one source folder, got {dirs}")
    return key, os.path.join(top, dirs[0])


def write_if_changed(path, text, mode=0o644):
    """Leaves an unchanged file alone: the native file is one of the build's
    inputs, and a new mtime would make ninja run meson again."""
    try:
        with open(path) as f:
            if f.read() == text:
                return
    except OSError:
        pass
    with open(path + ".tmp", "w") as f:
        f.write(text)
    os.chmod(path + ".tmp", mode)
    os.replace(path + ".tmp", path)


def build(scratch, key, src, programs, jobs):
    """Configures upstream's tree once per (tarball, configure line) and
    builds the programs; returns the build folder."""
    bdir = os.path.join(scratch, "build", key)
    wrap = os.path.join(scratch, "meson-wrap")
    native = os.path.join(scratch, "no-edk2-blobs.ini")
    write_if_changed(native, NATIVE_FILE)
    write_if_changed(wrap, "#!/bin/sh\n# meson for upstream's configure: the "
                     "native file goes after configure's own\n"
                     f'[ "$1" = setup ] && exec meson "$@" --native-file '
                     f'{native}\nexec meson "$@"\n', mode=0o755)
    cmd = [os.path.join(src, "configure"), f"--meson={wrap}",
           *CONFIGURE_ARGS]
    stamp = os.path.join(bdir, ".configured")
    log = os.path.join(scratch, f"configure-{key}.log")
    done = None
    if os.path.exists(stamp):
        with open(stamp) as f:
            done = f.read()
    if done != " ".join(cmd) + "\n" or \
            not os.path.exists(os.path.join(bdir, "build.ninja")):
        say(f"build: configure ({key}), log {log}")
        shutil.rmtree(bdir, ignore_errors=True)
        os.makedirs(bdir)
        if os.path.exists(log):
            os.unlink(log)
        run_logged(cmd, log, cwd=bdir)
        with open(stamp, "w") as f:
            f.write(" ".join(cmd) + "\n")
    targets = [f"tests/qtest/{p}" for p in programs]
    log = os.path.join(scratch, f"ninja-{key}.log")
    if os.path.exists(log):
        os.unlink(log)
    say(f"build: ninja -j{jobs} {len(targets)} qtest programs, log {log}")
    run_logged(["ninja", "-C", bdir, f"-j{jobs}", *targets], log)
    return bdir


def read_expected(path):
    """{(program, subtest path): reason} from the expected-failure list."""
    expected = {}
    with open(path) as f:
        for n, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            parts = line.split(None, 2)
            if len(parts) < 3:
                raise HarnessError(f"{path}:{n}: want `program path "
                                   f"reason`, got {line!r}")
            expected[(parts[0], parts[1])] = parts[2]
    return expected


def gtest_args(mode):
    return ["-m", "slow"] if mode == "slow" else []


def list_subtests(exe, mode, env, timeout):
    """The subtest paths of one program (its main probes the binary, as
    upstream's do, so the list depends on the machines it offers)."""
    try:
        r = subprocess.run([exe, "-l", *gtest_args(mode)], env=env,
                           capture_output=True, text=True, timeout=timeout,
                           stdin=subprocess.DEVNULL, start_new_session=True)
    except subprocess.TimeoutExpired:
        return None, f"listing timed out after {timeout} s"
    paths = [l for l in r.stdout.splitlines() if l.startswith("/")]
    if r.returncode != 0 or not paths:
        last = (r.stderr.strip().splitlines() or ["no output"])[-1]
        return None, f"listing failed (exit {r.returncode}): {last}"
    return paths, None


def zombie_children(pid):
    """The children of pid that have exited and were not reaped."""
    found = []
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            with open(f"/proc/{d}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if fields[0] == "Z" and int(fields[1]) == pid:
            found.append(int(d))
    return found


# How long an exited QEMU may stay unreaped before the subtest is stopped.
# libqtest reaps QEMU only when it quits it; a QEMU that refuses its
# command line exits at once, and the test then waits 50 s in accept() for
# a connection that cannot come.
ZOMBIE_GRACE = 1.0


def run_once(cmd, env, timeout, log):
    """One process group (the test and the QEMU it starts), output
    appended to log.  Returns (exit status, how it was stopped or None)."""
    start = time.monotonic()
    with open(log, "a") as f:
        f.write(f"$ QTEST_QEMU_BINARY={env['QTEST_QEMU_BINARY']} "
                f"{'QTEST_LOG=1 ' if env.get('QTEST_LOG') else ''}"
                f"{' '.join(cmd)}\n")
        f.flush()
        # through a pipe, not the file itself: QTEST_LOG=1 makes QEMU open
        # /dev/fd/2 for its log, which for a file would truncate it
        p = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, text=True,
                             errors="replace", stdin=subprocess.DEVNULL,
                             start_new_session=True)
        copier = threading.Thread(target=shutil.copyfileobj,
                                  args=(p.stdout, f))
        copier.start()
        stopped = None
        zombie_since = None
        while True:
            try:
                p.wait(timeout=0.2)
                break
            except subprocess.TimeoutExpired:
                pass
            now = time.monotonic()
            if now - start > timeout:
                stopped = f"timed out after {timeout} s (libqtest has no " \
                          f"timeout of its own)"
                break
            if not zombie_children(p.pid):
                zombie_since = None
            elif zombie_since is None:
                zombie_since = now
            elif now - zombie_since > ZOMBIE_GRACE:
                stopped = "QEMU exited and the test went on waiting for " \
                          "it (libqtest: 50 s in accept())"
                break
        # whatever is left of the group (a QEMU the test did not reap)
        try:
            os.killpg(p.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        rc = p.wait()
        copier.join()
        p.stdout.close()
        f.write(f"# exit {rc}{', ' + stopped if stopped else ''}, "
                f"{time.monotonic() - start:.1f} s\n")
    return rc, stopped


def explain(out, path, rc, stopped):
    """Why a run failed, from its output: QEMU's own error, the last QMP
    error (with QTEST_LOG=1), the test's assertion, how it ended."""
    why = []
    for line in out.splitlines():
        m = re.match(r"^qemu(?:-system-x86_64)?: (.*)$", line)
        if m and "terminating on signal" not in line:
            why.append("QEMU: " + m.group(1))
            break
    command = None
    error = None
    by_id = {}
    for line in out.splitlines():
        m = re.match(r"^\[R \+[0-9.]+\] (.*)$", line)
        if m:
            command = "qtest " + m.group(1)
        m = re.match(r"^\[S \+[0-9.]+\] ((?:FAIL|ERR).*)$", line)
        if m:
            error = f"{command}: {m.group(1)}"
        if not line.startswith("{"):
            continue
        try:
            msg = json.loads(line)
        except ValueError:
            continue
        if "execute" in msg or "exec-oob" in msg:
            command = "QMP " + (msg.get("execute") or msg["exec-oob"])
            if "id" in msg:
                by_id[str(msg["id"])] = command
        elif isinstance(msg.get("error"), dict):
            # out-of-band replies may come in another order: pair by id
            cmd = by_id.get(str(msg["id"]), "QMP") if "id" in msg \
                else command
            error = f"{cmd}: {msg['error'].get('desc')}"
    if error:
        why.append(error)
    m = re.search(r"^ERROR:(?:[^:]*/)?([^/:]+:\d+):[^:]+: (.*)$", out, re.M)
    if m:
        why.append(f"{m.group(1)}: {m.group(2)}")
    else:
        m = re.search(r"^Bail out! (.*)$", out, re.M)
        if m:
            why.append(m.group(1))
    if stopped:
        why.append(stopped)
    elif rc < 0:
        why.append(f"killed by signal {-rc}")
    elif not why:
        why.append(f"exit {rc}")
    return "; ".join(why)


def outcome_of(out, path, rc, stopped):
    mine = re.findall(rf"^(ok|not ok) \d+ {re.escape(path)}(.*)$", out,
                      re.M)
    if stopped is None and rc == 0 and mine and \
            all(r[0] == "ok" for r in mine):
        skip = [r[1] for r in mine if "# SKIP" in r[1]]
        if skip:
            return "skip", skip[0].split("# SKIP", 1)[1].strip()
        return "pass", ""
    return "fail", None


def run_subtest(exe, mode, path, env, timeout, log):
    """One subtest in a process of its own.  A failing one runs a second
    time with QTEST_LOG=1 (the qtest and QMP traffic) for its log and the
    reason.  Returns (outcome, detail): outcome is pass, skip or fail."""
    os.makedirs(os.path.dirname(log), exist_ok=True)
    open(log, "w").close()
    cmd = [exe, "--tap", *gtest_args(mode), "-p", path]
    rc, stopped = run_once(cmd, env, timeout, log)
    with open(log, errors="replace") as f:
        out = f.read()
    outcome, detail = outcome_of(out, path, rc, stopped)
    if outcome != "fail":
        return outcome, detail
    detail = explain(out, path, rc, stopped)
    rc2, stopped2 = run_once(cmd, dict(env, QTEST_LOG="1"), timeout, log)
    with open(log, errors="replace") as f:
        out2 = f.read()[len(out):]
    if outcome_of(out2, path, rc2, stopped2)[0] == "fail":
        detail = explain(out2, path, rc2, stopped2)
    else:
        detail += " (passed when run again with QTEST_LOG=1: flaky)"
    return "fail", detail


def log_name(logdir, program, path):
    safe = re.sub(r"[^A-Za-z0-9._+-]", "_", path.strip("/"))
    return os.path.join(logdir, program, safe + ".log")


def run_all(bdir, programs, binary, expected, logdir, jobs, check_stale,
            expected_path):
    env = dict(os.environ)
    env["QTEST_QEMU_BINARY"] = binary
    tmp = tempfile.mkdtemp(prefix="upstream-qtest-")
    env["TMPDIR"] = tmp     # libqtest's sockets; removed at the end
    top = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
    rel = os.path.relpath(os.path.abspath(expected_path), top)
    n = 0
    failed = 0
    counts = {}
    seen = set()
    try:
        with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
            for program, mode, timeout, _why in programs:
                exe = os.path.join(bdir, "tests", "qtest", program)
                paths, err = list_subtests(exe, mode, env, timeout)
                c = counts.setdefault(program, {"pass": 0, "todo": 0,
                                                "fail": 0, "skip": 0})
                if paths is None:
                    paths = [None]
                futures = [(path, pool.submit(
                    run_subtest, exe, mode, path, env, timeout,
                    log_name(logdir, program, path)) if path else None)
                    for path in paths]
                for path, fut in futures:
                    n += 1
                    key = (program, path or "(list)")
                    seen.add(key)
                    name = f"{program}:{path or '(list)'}"
                    if fut is None:
                        outcome, detail = "fail", err
                        log = None
                    else:
                        outcome, detail = fut.result()
                        log = log_name(logdir, program, path)
                    reason = expected.get(key)
                    if outcome == "pass" and reason is None:
                        c["pass"] += 1
                        print(f"ok {n} - {name}", flush=True)
                    elif outcome == "pass":
                        c["fail"] += 1
                        failed += 1
                        print(f"not ok {n} - {name} # unexpected pass: "
                              f"remove it from {rel}", flush=True)
                    elif reason is not None:
                        c["todo"] += 1
                        print(f"not ok {n} - {name} # TODO {reason}",
                              flush=True)
                        # what it said this time: a listed subtest may come
                        # to fail for another reason as the board grows
                        say(f"  {detail}")
                    elif outcome == "skip":
                        # ci-summary.py judges the reason (docs/testing.md)
                        c["skip"] += 1
                        print(f"ok {n} - {name} # SKIP {detail}", flush=True)
                    else:
                        c["fail"] += 1
                        failed += 1
                        print(f"not ok {n} - {name}", flush=True)
                        say(f"  {detail}")
                        if log:
                            say(f"  log: {log}")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    if check_stale:
        for key in sorted(set(expected) - seen):
            n += 1
            failed += 1
            print(f"not ok {n} - {key[0]}:{key[1]} # listed in {rel} but "
                  f"no such subtest: remove it", flush=True)
    print(f"1..{n}")
    for program, c in counts.items():
        say(f"{program}: {c['pass']} passed, {c['todo']} expected "
            f"failures, {c['fail']} failed, {c['skip']} skipped")
    total = {k: sum(c[k] for c in counts.values())
             for k in ("pass", "todo", "fail", "skip")}
    say(f"all: {total['pass']} of {sum(total.values())} subtests passed, "
        f"{total['todo']} expected failures, {total['fail']} failed, "
        f"{total['skip']} skipped")
    return 1 if failed else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--binary", required=True,
                    help="the emulator under test (QTEST_QEMU_BINARY)")
    ap.add_argument("--expected", required=True,
                    help="the expected-failure list")
    ap.add_argument("--logdir", default="upstream-qtest-logs",
                    help="one log per subtest goes here")
    ap.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1,
                    help="subtests at once, and ninja's -j")
    ap.add_argument("--program", action="append",
                    help="run only this program (repeatable)")
    ap.add_argument("--build-only", action="store_true",
                    help="fetch and build, run nothing")
    args = ap.parse_args()

    programs = PROGRAMS
    if args.program:
        unknown = set(args.program) - {p[0] for p in PROGRAMS}
        if unknown:
            ap.error(f"not in the table: {', '.join(sorted(unknown))}")
        programs = [p for p in PROGRAMS if p[0] in args.program]
    binary = os.path.abspath(args.binary)
    scratch = scratch_dir()
    os.makedirs(scratch, exist_ok=True)
    say(f"scratch folder: {scratch}")
    try:
        expected = read_expected(args.expected)
        # one fetch and build at a time (build trees may share the cache)
        with open(os.path.join(scratch, ".lock"), "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            t0 = time.monotonic()
            orig = fetch(scratch, installed_version())
            t1 = time.monotonic()
            key, src = unpack(scratch, orig)
            t2 = time.monotonic()
            bdir = build(scratch, key, src, [p[0] for p in programs],
                         args.jobs)
            t3 = time.monotonic()
            say(f"fetch {t1 - t0:.0f} s, unpack {t2 - t1:.0f} s, build "
                f"{t3 - t2:.0f} s")
    except (HarnessError, OSError) as e:
        # no test could run: that is a failure, not a skip
        say(str(e))
        print(f"Bail out! {str(e).splitlines()[0]}")
        return 1
    if args.build_only:
        say("--build-only: nothing run")
        return 0
    logdir = os.path.abspath(args.logdir)
    shutil.rmtree(logdir, ignore_errors=True)
    t0 = time.monotonic()
    rc = run_all(bdir, programs, binary, expected, logdir, args.jobs,
                 check_stale=not args.program, expected_path=args.expected)
    say(f"run: {time.monotonic() - t0:.0f} s, logs in {logdir}")
    return rc


if __name__ == "__main__":
    sys.exit(main())
