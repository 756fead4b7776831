import type { PathPattern } from '@svc/protocol/site-rules';

interface TreeNode {
  /** Entries whose pattern ends here, in file order. */
  readonly exact: number[];
  /** Entries whose pattern ends here with `*`: they match this path and everything below it. */
  readonly splat: number[];
  readonly literal: Map<string, TreeNode>;
  param: TreeNode | null;
  /** The smallest entry anywhere at or below this node: a search for the first match skips what cannot beat it. */
  least: number;
}

function node(): TreeNode {
  return { exact: [], splat: [], literal: new Map(), param: null, least: Number.POSITIVE_INFINITY };
}

/**
 * Path patterns compiled into a tree of their segments, as routers do (find-my-way's radix
 * tree, segment by segment): a request's path walks down its own segments, so finding the
 * rules that match costs the path's length, not the number of rules. Entries are numbered
 * in file order; `first` is the lowest-numbered match (the first rule of `_redirects`
 * wins), `all` every match in order (every block of `_headers` applies).
 */
export class PatternTree {
  private readonly root = node();
  private size = 0;

  /** Adds the next entry (numbered from 0 in the order added). */
  add(pattern: PathPattern): number {
    const index = this.size;
    this.size += 1;
    let at = this.root;
    at.least = Math.min(at.least, index);
    for (const segment of pattern.segments) {
      let next: TreeNode | null | undefined;
      if ('literal' in segment) {
        next = at.literal.get(segment.literal);
        if (next === undefined) at.literal.set(segment.literal, (next = node()));
      } else {
        next = at.param ?? (at.param = node());
      }
      at = next;
      at.least = Math.min(at.least, index);
    }
    (pattern.splat ? at.splat : at.exact).push(index);
    return index;
  }

  get count(): number {
    return this.size;
  }

  /** The first entry whose pattern matches the path's segments, or -1. */
  first(segments: readonly string[]): number {
    const best = firstBelow(this.root, segments, 0, Number.POSITIVE_INFINITY);
    return best === Number.POSITIVE_INFINITY ? -1 : best;
  }

  /** Every entry whose pattern matches, in order. */
  all(segments: readonly string[]): number[] {
    const found: number[] = [];
    allBelow(this.root, segments, 0, found);
    return found.sort((a, b) => a - b);
  }
}

function firstBelow(at: TreeNode, segments: readonly string[], depth: number, best: number): number {
  if (at.least >= best) return best;
  if (at.splat.length > 0) best = Math.min(best, at.splat[0]!);
  if (depth === segments.length) return at.exact.length > 0 ? Math.min(best, at.exact[0]!) : best;
  const literal = at.literal.get(segments[depth]!);
  if (literal !== undefined) best = firstBelow(literal, segments, depth + 1, best);
  if (at.param !== null) best = firstBelow(at.param, segments, depth + 1, best);
  return best;
}

function allBelow(at: TreeNode, segments: readonly string[], depth: number, found: number[]): void {
  found.push(...at.splat);
  if (depth === segments.length) {
    found.push(...at.exact);
    return;
  }
  const literal = at.literal.get(segments[depth]!);
  if (literal !== undefined) allBelow(literal, segments, depth + 1, found);
  if (at.param !== null) allBelow(at.param, segments, depth + 1, found);
}

/**
 * What a pattern's placeholders take from the segments it matched: `:name` its segment,
 * `:splat` the rest of the path (segments joined by `/`, empty when there is none).
 */
export function capturesOf(pattern: PathPattern, segments: readonly string[]): Map<string, string | readonly string[]> {
  const captures = new Map<string, string | readonly string[]>();
  pattern.segments.forEach((segment, index) => {
    if ('param' in segment) captures.set(segment.param, segments[index]!);
  });
  if (pattern.splat) captures.set('splat', segments.slice(pattern.segments.length));
  return captures;
}
