/**
 * A first lesson (docs/rules.md, "A first lesson"): Seven Suitors for
 * newcomers. Four players in the same two partnerships, scored as Seven
 * Suitors, but without passing or special cards, and over one to three
 * hands, so the first game teaches trick play, trump and marriages alone.
 */
import type { GameRules } from './gameRules.js';
import { sevenSuitorsRules, TEAMS_OF_FOUR_FR } from './sevenSuitors.js';

export const firstLessonRules: GameRules = {
  ...sevenSuitorsRules,
  title: 'Seven Suitors: a first lesson',
  options: {
    end: {
      label: 'Game ends after',
      values: ['hands:1', 'hands:2', 'hands:3'],
      default: 'hands:1',
      shorthands: { hands: 'hands:1' },
      choices: [
        { value: 'hands:1', label: 'one hand' },
        { value: 'hands:2', label: '2 hands' },
        { value: 'hands:3', label: '3 hands' },
      ],
    },
    specials: {
      label: 'Special cards',
      values: ['off'],
      default: 'off',
      impossible: {
        plain: 'a first lesson has no special cards: specials is off (play Seven Suitors for them)',
        powers: 'a first lesson has no special cards: specials is off (play Seven Suitors for them)',
      },
      choices: [{ value: 'off', label: 'no special cards' }],
    },
  },
  passes: () => false,
  words: {
    ...sevenSuitorsRules.words,
    summary: [
      'Four players in two teams: seats 0 and 2 (team A) against seats 1 and 3 (team B); partners sit opposite.',
      'No passing and no special cards: the cards you are dealt are the cards you play.',
      'Every suit your team marries is marked off for your team; after the last hand the team with more suits marked wins (then more marriages).',
    ],
    translations: {
      fr: {
        ...sevenSuitorsRules.words.translations.fr,
        title: 'Seven Suitors : une première leçon',
        summary: [
          TEAMS_OF_FOUR_FR,
          'Ni passe ni cartes spéciales : vous jouez les cartes qui vous sont distribuées.',
          'Chaque couleur que votre équipe marie est marquée pour votre équipe ; après la dernière donne, l’équipe qui a le plus de couleurs marquées gagne (puis le plus de mariages).',
        ],
      },
    },
  },
};
