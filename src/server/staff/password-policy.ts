/**
 * Whether a new staff password is acceptable: long enough (the schema checks the length) and not
 * on the shipped list of common and breached passwords, nor one of them repeated or followed by
 * digits ("dragondragondragon", "password12345678"), which meet the length and are guessed first.
 */
import fs from 'node:fs';
import path from 'node:path';

/**
 * common-passwords.txt, one a line: Openwall's `password.lst` (John the Ripper 1.9.0, Debian
 * package john-data 1.9.0-2), compiled by Solar Designer from 1996 to 2011 out of passwords seen
 * on real systems and in public "top N" lists of website breaches, and placed by him in the
 * public domain; lower-cased, duplicates removed (issue 27). Read once at start, beside this
 * module: build:server copies it into dist/server/staff/.
 */
const common = new Set(
  fs
    .readFileSync(path.join(import.meta.dirname, 'common-passwords.txt'), 'utf8')
    .split('\n')
    .filter((line) => line !== ''),
);

export function isCommonPassword(password: string): boolean {
  const typed = password.normalize('NFKC').toLowerCase().trim();
  if (common.has(typed)) return true;
  const withoutDigits = typed.replace(/[\d\W_]+$/u, '');
  if (withoutDigits !== typed && (withoutDigits === '' || common.has(withoutDigits))) return true;
  for (let size = 1; size <= typed.length / 2; size += 1) {
    if (typed.length % size !== 0) continue;
    const unit = typed.slice(0, size);
    if (unit.repeat(typed.length / size) === typed && (size < 4 || common.has(unit))) return true;
  }
  return false;
}

export const COMMON_PASSWORD_MESSAGE =
  'That password is on a list of common or breached passwords. Please choose another: a few unrelated words work well.';
