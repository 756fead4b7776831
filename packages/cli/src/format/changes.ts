import type { ConfigChange } from '@svc/protocol/api';
import type { Output } from '../output.js';

/** One line per change: `+ created form contact`, `~ framework: static → next`, `- deleted …`. */
export function formatChanges(out: Output, changes: readonly ConfigChange[]): string {
  return changes
    .map((change) => {
      switch (change.action) {
        case 'created':
          return `  ${out.color.green('+')} ${change.summary}`;
        case 'updated':
          return `  ${out.color.yellow('~')} ${change.summary}`;
        case 'deleted':
          return `  ${out.color.red('-')} ${change.summary}`;
      }
    })
    .join('\n');
}
