import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { tempDirs } from '../helpers/factories';
import { startGatewayProcess } from '../helpers/gateway-process';
import { describeOn } from '../helpers/test-env';

/** One gateway process per embedded data directory (docs/architecture.md, The embedded database). */
jest.setTimeout(180_000);

describeOn('embedded', 'the lock file is the embedded database’s')('gateway process', () => {
  const tempDir = tempDirs('gw-proc-');

  it('refuses a second process on the same embedded data directory', async () => {
    const dataDir = tempDir();
    const first = await startGatewayProcess({ DATA_DIR: dataDir });
    const second = await startGatewayProcess({ DATA_DIR: dataDir }, { waitHealthy: false });
    expect(await second.exited).toBe(1);
    // One line says why: no stack, and none of Nest's lines from the build it abandoned.
    const lines = second.output().trim().split('\n');
    expect(lines).toEqual([expect.stringMatching(new RegExp(`^Gateway failed to start: Another gateway process \\(pid ${first.child.pid}\\)`))]);
    first.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    expect(existsSync(join(dataDir, 'gateway.lock'))).toBe(false);
  });

  it('starts on the directory right after the process before it was killed with SIGKILL', async () => {
    const dataDir = tempDir();
    const first = await startGatewayProcess({ DATA_DIR: dataDir });
    first.kill('SIGKILL');
    // Not waiting for it to be gone: the restart may find it still exiting (the lock waits for that).
    const second = await startGatewayProcess({ DATA_DIR: dataDir });
    expect(await first.exited).toBe('SIGKILL');
    expect((await fetch(`${second.url}/health`)).status).toBe(200);
    second.kill('SIGTERM');
    expect(await second.exited).toBe(0);
    expect(existsSync(join(dataDir, 'gateway.lock'))).toBe(false);
  });
});
