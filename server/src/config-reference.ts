import type { z } from 'zod';
import { CONFIG_MODULES } from './config.ts';
import type { VarDecl } from './platform/config/define.ts';

/**
 * The two documents of the configuration, generated from the modules' declarations (each variable's
 * schema, `doc`, `shownDefault`, `example`): `.env.example` and the README's table. `npm run
 * env-example` writes both; config-reference.test.ts fails when either is out of step.
 */

type Def = { type: string; in?: Schema; innerType?: Schema; defaultValue?: unknown };
type Schema = { _zod: { def: Def } };

/** The default a variable has before parsing (its `.default(…)`), or undefined. */
export function rawDefault(schema: z.ZodType): string | undefined {
  let s = schema as unknown as Schema | undefined;
  while (s) {
    const def = s._zod.def;
    if (def.type === 'default' || def.type === 'prefault') {
      const v = def.defaultValue;
      return v === undefined || v === '' ? undefined : String(v);
    }
    s = def.type === 'pipe' ? def.in : def.innerType;
  }
  return undefined;
}

/** Markdown to the plain text of a `.env.example` comment: links keep their text, no code marks. */
function plain(markdown: string): string {
  return markdown
    .replace(/\[([^\]]+)\]\([^)]+\)/g, '$1')
    .replace(/\*\*([^*]+)\*\*/g, '$1')
    .replace(/`([^`]*)`/g, '$1');
}

/** `text` as `# ` comment lines of at most `width` characters. */
function commentLines(text: string, width = 110): string[] {
  const lines: string[] = [];
  let line = '#';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line.length + 1 + word.length > width && line !== '#') {
      lines.push(line);
      line = '#';
    }
    line += ` ${word}`;
  }
  if (line !== '#') lines.push(line);
  return lines;
}

const sections = () => CONFIG_MODULES.map((m) => ({ title: m.title, vars: Object.entries(m.vars) }));

/** The text of `.env.example`. */
export function renderEnvExample(): string {
  const out = [
    "# Guildhall configuration (generated from the config modules' declarations by `npm run env-example`;",
    '# do not edit). Every variable is optional: with none set, the portal runs on SQLite under ./data with',
    '# a generated access code. Copy this file to .env and uncomment what you need.',
  ];
  for (const section of sections()) {
    out.push('', `# ---- ${section.title} ----`);
    for (const [name, decl] of section.vars) {
      const raw = rawDefault(decl.schema);
      // A default the schema cannot show (computed, or the absence of one) is said in words.
      const said = raw === undefined && decl.shownDefault ? ` (default: ${plain(decl.shownDefault)})` : '';
      out.push(...commentLines(plain(decl.doc) + said));
      out.push(`# ${name}=${raw ?? decl.example ?? ''}`);
    }
  }
  return `${out.join('\n')}\n`;
}

/** A variable's default as the README's table shows it. */
function shownDefault(decl: VarDecl): string {
  if (decl.shownDefault) return decl.shownDefault;
  const raw = rawDefault(decl.schema);
  return raw === undefined ? '—' : `\`${raw}\``;
}

/** The README's configuration tables, one per module (between the README's `config-table` markers). */
export function renderReadmeTable(): string {
  const out: string[] = [];
  for (const section of sections()) {
    out.push(`#### ${section.title}`, '', '| variable | default | what it does |', '|---|---|---|');
    for (const [name, decl] of section.vars) {
      out.push(`| \`${name}\` | ${shownDefault(decl)} | ${decl.doc.replaceAll('|', '\\|')} |`);
    }
    out.push('');
  }
  return out.join('\n');
}

export const README_TABLE_START =
  '<!-- config-table: generated from the config modules by `npm run env-example`; do not edit -->';
export const README_TABLE_END = '<!-- /config-table -->';

/** `readme` with its configuration tables replaced by freshly generated ones. */
export function withReadmeTable(readme: string): string {
  const start = readme.indexOf(README_TABLE_START);
  const end = readme.indexOf(README_TABLE_END);
  if (start < 0 || end < start) throw new Error('README.md lacks the config-table markers');
  return `${readme.slice(0, start + README_TABLE_START.length)}\n\n${renderReadmeTable()}\n${readme.slice(end)}`;
}
