/**
 * A robots.txt reader following RFC 9309: groups by user-agent, the most specific group for
 * our product token (else `*`), the longest matching rule wins and `allow` wins a tie,
 * `*` matches any run of characters and a trailing `$` anchors the end.
 */
export interface RobotsRule {
  allow: boolean;
  pattern: string;
}

export interface RobotsFile {
  groups: { agents: string[]; rules: RobotsRule[] }[];
  sitemaps: string[];
}

export function parseRobots(text: string): RobotsFile {
  const groups: RobotsFile['groups'] = [];
  const sitemaps: string[] = [];
  let current: RobotsFile['groups'][number] | null = null;
  let lastWasAgent = false;

  for (const rawLine of text.split(/\r\n|\r|\n/)) {
    const line = rawLine.replace(/#.*$/, '').trim();
    const colon = line.indexOf(':');
    if (colon < 1) continue;
    const field = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (field === 'user-agent') {
      if (!current || !lastWasAgent) {
        current = { agents: [], rules: [] };
        groups.push(current);
      }
      current.agents.push(value.toLowerCase());
      lastWasAgent = true;
    } else if (field === 'allow' || field === 'disallow') {
      lastWasAgent = false;
      // An empty disallow allows everything, which is what no rule at all means too.
      if (current && value !== '') current.rules.push({ allow: field === 'allow', pattern: value });
    } else if (field === 'sitemap') {
      if (value !== '') sitemaps.push(value);
    } else {
      lastWasAgent = false;
    }
  }
  return { groups, sitemaps };
}

/**
 * Whether `path` matches a robots pattern. A site's robots.txt is input from a stranger, so this
 * is the classic two-pointer wildcard match (time bounded by path × pattern length) rather than a
 * regular expression, which several `*` could make backtrack for a very long time.
 */
export function matchesPattern(pattern: string, path: string): boolean {
  const anchored = pattern.endsWith('$');
  // Without `$` a pattern is a prefix: the same as ending in `*`.
  const p = anchored ? pattern.slice(0, -1) : `${pattern}*`;
  let i = 0;
  let j = 0;
  let star = -1;
  let resume = 0;
  while (i < path.length) {
    if (j < p.length && p[j] !== '*' && p[j] === path[i]) {
      i += 1;
      j += 1;
    } else if (j < p.length && p[j] === '*') {
      star = j;
      resume = i;
      j += 1;
    } else if (star !== -1) {
      j = star + 1;
      resume += 1;
      i = resume;
    } else {
      return false;
    }
  }
  while (j < p.length && p[j] === '*') j += 1;
  return j === p.length;
}

/** The rules that apply to `agent` (a product token such as "webpagereportbot"). */
export function rulesFor(robots: RobotsFile, agent: string): RobotsRule[] {
  const token = agent.toLowerCase();
  const specific = robots.groups.filter((g) => g.agents.some((a) => a !== '*' && token.startsWith(a)));
  const chosen = specific.length > 0 ? specific : robots.groups.filter((g) => g.agents.includes('*'));
  return chosen.flatMap((g) => g.rules);
}

/** The rule that disallows `path` (path plus query) for `agent`, or null when it is allowed. */
export function disallowingRule(robots: RobotsFile, agent: string, path: string): RobotsRule | null {
  let best: RobotsRule | null = null;
  for (const rule of rulesFor(robots, agent)) {
    if (!matchesPattern(rule.pattern, path)) continue;
    if (
      !best ||
      rule.pattern.length > best.pattern.length ||
      (rule.pattern.length === best.pattern.length && rule.allow)
    ) {
      best = rule;
    }
  }
  return best && !best.allow ? best : null;
}
