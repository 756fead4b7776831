import { noSiteRules, type HeaderBlock, type RedirectRule, type RedirectTarget, type SiteRules } from '@svc/protocol/site-rules';
import { setBounded } from '../lib/bounded-map.js';
import { capturesOf, PatternTree } from './pattern-tree.js';

/** What a rule of `_redirects` answers a request with. */
export type RuleAnswer =
  /** A redirect to `location` (a path of the site or an absolute URL, ASCII). */
  | { readonly kind: 'redirect'; readonly status: 301 | 302 | 303 | 307 | 308; readonly location: string; readonly rule: RedirectRule }
  /** The file at `path` (a site path, percent-encoded), served under the path asked for with `status`. */
  | { readonly kind: 'rewrite'; readonly status: 200 | 404; readonly path: string; readonly rule: RedirectRule };

/**
 * A deploy's `_redirects` and `_headers`, compiled once when the deploy is held
 * (docs/hosting.md#redirects-and-headers): each file's patterns in a tree of their
 * segments, so that a request costs the length of its path whatever the number of rules.
 */
export class CompiledSiteRules {
  static readonly none = new CompiledSiteRules(noSiteRules);

  private readonly redirects: readonly RedirectRule[];
  private readonly allRules = new PatternTree();
  /** The rules with `!`, which apply where a file answers too; entry i is rule forcedRules[i]. */
  private readonly forced = new PatternTree();
  private readonly forcedRules: number[] = [];
  private readonly blocks: readonly HeaderBlock[];
  private readonly blockTree = new PatternTree();
  private readonly heldHeaders = new Map<string, readonly (readonly [string, string])[]>();

  constructor(rules: SiteRules) {
    this.redirects = rules.redirects;
    this.blocks = rules.headers;
    rules.redirects.forEach((rule, index) => {
      this.allRules.add(rule.from);
      if (!rule.force) return;
      this.forced.add(rule.from);
      this.forcedRules.push(index);
    });
    for (const block of rules.headers) this.blockTree.add(block.path);
  }

  /** How many rules and header blocks the deploy carries. */
  get counts(): { readonly redirects: number; readonly headers: number } {
    return { redirects: this.redirects.length, headers: this.blocks.length };
  }

  /**
   * The rule that answers the path (its decoded segments, a trailing `/` left out), if any:
   * the first that matches; where a file answers the path, only a rule with `!` applies
   * (shadowing). `search` is the request's query string without `?`, passed on to a
   * redirect whose TO has none.
   */
  answer(segments: readonly string[], search: string, fileAnswers: boolean): RuleAnswer | null {
    if (this.redirects.length === 0) return null;
    let index: number;
    if (fileAnswers) {
      const forced = this.forced.first(segments);
      index = forced === -1 ? -1 : this.forcedRules[forced]!;
    } else {
      index = this.allRules.first(segments);
    }
    if (index === -1) return null;
    const rule = this.redirects[index]!;
    const filled = fill(rule.to, capturesOf(rule.from, segments));
    if (rule.status === 200 || rule.status === 404) return { kind: 'rewrite', status: rule.status, path: filled.split(/[?#]/)[0]!, rule };
    return { kind: 'redirect', status: rule.status, location: withQuery(filled, search), rule };
  }

  /**
   * The headers `_headers` sets for the path: every matching block in file order, the
   * values of one name joined with `, `. Empty when no block matches.
   */
  headers(segments: readonly string[]): readonly (readonly [name: string, value: string])[] {
    if (this.blocks.length === 0) return noHeaders;
    // The same paths are asked for again and again: their merged headers are held (a bounded
    // number of paths, so a crawl of made-up paths cannot grow it).
    const key = segments.join('/');
    const held = this.heldHeaders.get(key);
    if (held !== undefined) return held;
    const merged = new Map<string, string>();
    for (const index of this.blockTree.all(segments)) {
      for (const [name, value] of this.blocks[index]!.headers) {
        const before = merged.get(name);
        merged.set(name, before === undefined ? value : `${before}, ${value}`);
      }
    }
    const headers = [...merged];
    setBounded(this.heldHeaders, key, headers, maxHeldPaths);
    return headers;
  }
}

const noHeaders: readonly (readonly [string, string])[] = [];
/** Paths whose merged headers are held, per deploy. */
const maxHeldPaths = 1_000;

/** TO with its placeholders filled in, each captured segment percent-encoded (a splat's `/` kept). */
function fill(target: RedirectTarget, captures: Map<string, string | readonly string[]>): string {
  let out = '';
  for (const part of target.parts) {
    if ('text' in part) {
      out += part.text;
      continue;
    }
    const value = captures.get(part.name) ?? '';
    out += typeof value === 'string' ? encodeURIComponent(value) : value.map((segment) => encodeURIComponent(segment)).join('/');
  }
  return out;
}

/** The request's query string carried over to a redirect whose TO has none, before any `#fragment`. */
function withQuery(location: string, search: string): string {
  if (search === '') return location;
  const hash = location.indexOf('#');
  const base = hash === -1 ? location : location.slice(0, hash);
  if (base.includes('?')) return location;
  return `${base}?${search}${hash === -1 ? '' : location.slice(hash)}`;
}
