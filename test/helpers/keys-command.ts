import { spawn } from 'node:child_process';
import { projectRoot } from '../../server/data/paths.js';

/** `npm run keys` with the store that `env` names and `input` on standard input: its exit code and output. */
export function keysCommand(env: NodeJS.ProcessEnv, args: string[], input = ''): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', '--silent', 'keys', '--', ...args], { cwd: projectRoot, env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(input);
  });
}
