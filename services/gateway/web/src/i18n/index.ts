/**
 * The language the client speaks: the one chosen in the header and kept in
 * localStorage, else the first of the browser's languages this client has
 * words for, else English. Every module reads its words through words(), so
 * a page drawn after a switch is in the new language.
 */
import { type Catalogue, en } from './en.js';
import { fr } from './fr.js';

const CATALOGUES = { en, fr } as const satisfies Record<string, Catalogue>;
type Language = keyof typeof CATALOGUES;

/** The header's choices, each in its own language. */
export const LANGUAGE_NAMES: Readonly<Record<Language, string>> = { en: 'English', fr: 'Français' };

const STORAGE_KEY = 'language';

function isLanguage(value: string | null): value is Language {
  return value !== null && Object.hasOwn(CATALOGUES, value);
}

/** "fr-FR" speaks fr; the stored choice comes before the browser's. */
function chosenLanguage(stored: string | null, browser: readonly string[]): Language {
  if (isLanguage(stored)) return stored;
  for (const tag of browser) {
    const base = tag.toLowerCase().split('-')[0] ?? '';
    if (isLanguage(base)) return base;
  }
  return 'en';
}

function storedLanguage(): string | null {
  try {
    return localStorage.getItem(STORAGE_KEY);
  } catch {
    // Storage refused (a private window): the browser's language decides.
    return null;
  }
}

// Decided on first use, not on import: a test in Node imports modules of the client (betweenHands.ts) for their constants.
let current: Language | null = null;

export function language(): Language {
  current ??= chosenLanguage(storedLanguage(), navigator.languages ?? [navigator.language]);
  return current;
}

export function words(): Catalogue {
  return CATALOGUES[language()];
}

/** Switches the client to `next` for this and later visits; the caller redraws the page. */
export function setLanguage(next: string): void {
  if (!isLanguage(next)) return;
  current = next;
  document.documentElement.lang = next;
  try {
    localStorage.setItem(STORAGE_KEY, next);
  } catch {
    // Not remembered, but still switched for this visit.
  }
}
