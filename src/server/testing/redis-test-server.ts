/**
 * A real redis-server of the test's own, on a free port: the test can stop it dead (SIGSTOP) the
 * way a paused or cut-off Redis behaves, holding connections open and answering nothing, without
 * touching a Redis anyone else uses. It runs only where a redis-server is installed
 * (REDIS_SERVER_PATH, which vitest.config.ts sets; the Redis tests are not run without one).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import os from 'node:os';
import readline from 'node:readline';
import { freePort } from './free-port.js';

export class RedisTestServer {
  private constructor(
    private readonly child: ChildProcess,
    readonly port: number,
  ) {}

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  static async start(): Promise<RedisTestServer> {
    const path = process.env.REDIS_SERVER_PATH;
    if (!path) throw new Error('REDIS_SERVER_PATH is not set: run the Redis tests through vitest.config.ts');
    // The free port may be taken again before Redis binds it: then try another.
    for (let attempt = 1; ; attempt += 1) {
      const port = await freePort();
      const child = spawn(
        path,
        ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', os.tmpdir()],
        { stdio: ['ignore', 'pipe', 'ignore'] },
      );
      const output: string[] = [];
      const ready = await new Promise<boolean>((resolve) => {
        readline.createInterface({ input: child.stdout }).on('line', (line) => {
          output.push(line);
          if (line.includes('Ready to accept connections')) resolve(true);
        });
        child.once('exit', () => resolve(false));
      });
      if (ready) return new RedisTestServer(child, port);
      if (attempt === 3) throw new Error(`redis-server did not start:\n${output.join('\n')}`);
    }
  }

  /** Stops the process where it stands: connections stay open, nothing is answered. */
  pause(): void {
    this.child.kill('SIGSTOP');
  }

  resume(): void {
    this.child.kill('SIGCONT');
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    // SIGKILL ends a paused process too.
    this.child.kill('SIGKILL');
    await exited;
  }
}
