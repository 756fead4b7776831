import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { statfs } from 'node:fs/promises';
import { lowPriority } from './low-priority.js';

/**
 * The bytes that `folders` take on disk together (allocated blocks, each hard-linked file
 * once, not following links, staying on each folder's file system): `du`, at the lowest
 * priority, so measuring a build with 50,000 files in node_modules costs the server's event
 * loop one child process. Folders that do not exist count 0.
 */
export function folderBytes(folders: readonly string[]): Promise<number> {
  const present = folders.filter((folder) => existsSync(folder));
  if (present.length === 0) return Promise.resolve(0);
  const [command, ...args] = [...lowPriority(), 'du', '-s', '-c', '-x', '-B1', '--', ...present] as [string, ...string[]];
  return new Promise((resolve, reject) => {
    // A file removed during the walk makes du exit 1 with the total still printed.
    execFile(command, args, { env: { PATH: '/usr/bin:/bin', LC_ALL: 'C' }, maxBuffer: 1024 * 1024 }, (error, stdout) => {
      const total = /^(\d+)\ttotal$/m.exec(stdout);
      if (total) resolve(Number(total[1]));
      else reject(new Error(`could not measure ${present.join(', ')}: ${error?.message ?? 'du printed no total'}`));
    });
  });
}

/** The bytes an unprivileged process may still write on the file system that holds `path`. */
export async function freeBytes(path: string): Promise<number> {
  const space = await statfs(path);
  return space.bavail * space.bsize;
}
