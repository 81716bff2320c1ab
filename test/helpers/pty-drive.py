"""Drive a command in a real pseudo-terminal: wait for each expected text, then type keys.

usage: python3 pty-drive.py '<json: {"argv": [...], "cwd": "...", "steps": [[text, [keys...]], ...]}>'
Prints everything the command wrote to the terminal; exits with the command's exit code
(124 when an expected text did not appear in time).
"""
import json, os, pty, select, sys, time

spec = json.loads(sys.argv[1])
TIMEOUT = float(spec.get('timeout', 30))

pid, fd = pty.fork()
if pid == 0:
    os.chdir(spec['cwd'])
    os.execvp(spec['argv'][0], spec['argv'])

seen = b''
cursor = 0

def pump(deadline):
    global seen
    left = deadline - time.time()
    if left <= 0:
        return False
    ready, _, _ = select.select([fd], [], [], left)
    if not ready:
        return False
    try:
        chunk = os.read(fd, 4096)
    except OSError:
        return False
    if not chunk:
        return False
    seen += chunk
    return True

for text, keys in spec['steps']:
    deadline = time.time() + TIMEOUT
    wanted = text.encode()
    while seen.find(wanted, cursor) == -1:
        if not pump(deadline):
            sys.stdout.write(seen.decode('utf8', 'replace'))
            sys.stdout.write('\n[pty-drive] timed out waiting for %r\n' % text)
            os.kill(pid, 9)
            sys.exit(124)
    cursor = seen.find(wanted, cursor) + len(wanted)
    time.sleep(0.15)
    for key in keys:
        os.write(fd, key.encode())
        time.sleep(0.05)

deadline = time.time() + TIMEOUT
while pump(deadline):
    pass
_, status = os.waitpid(pid, 0)
sys.stdout.write(seen.decode('utf8', 'replace'))
sys.exit(os.WEXITSTATUS(status) if os.WIFEXITED(status) else 128 + os.WTERMSIG(status))
