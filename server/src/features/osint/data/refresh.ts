/**
 * `npm run osint:refresh-sites`: replaces wmn-data.json with WhatsMyName's current list (CC BY-SA 4.0),
 * after checking that it parses as a site list and still has enough usable sites.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseSiteList } from '../sites.ts';

const SOURCE = 'https://raw.githubusercontent.com/WebBreacher/WhatsMyName/main/wmn-data.json';
const target = path.join(import.meta.dirname, 'wmn-data.json');

const res = await fetch(SOURCE);
if (!res.ok) throw new Error(`GET ${SOURCE}: HTTP ${res.status}`);
const text = await res.text();
const sites = parseSiteList(JSON.parse(text));
if (sites.length < 500) throw new Error(`Only ${sites.length} usable sites; keeping the current list`);
fs.writeFileSync(target, text);
console.log(`wrote ${path.relative(process.cwd(), target)}: ${sites.length} usable sites`);
