/** The games' own words in French, entry for entry as enGame.ts; options and values by their keys. */
import { GAME_NAMES, rulesOf } from '../../../../../machines/games/rules/index.js';
import type { TranslatedGameWords } from '../../../../../machines/games/rules/gameRules.js';
import type { GameWords, RulesView } from './enGame.js';

/**
 * The game's own words in French, from its rules object (machines/games/rules/, `words.translations.fr`), so a
 * game added with its French needs no edit here. A table whose English words are not the current rules' (it plays
 * by an earlier rulebook) keeps its own English ones, rather than French words of rules it does not play by; so
 * does a game with no French.
 */
function frenchOf(rules: RulesView): TranslatedGameWords | null {
  const current = rulesOf(rules.game).words;
  const sameRules = current.end(rules.options) === rules.endWords && current.summary.join('\n') === rules.rulesSummary.join('\n');
  return sameRules ? (current.translations.fr ?? null) : null;
}

export const frGame: GameWords = {
  titles: Object.fromEntries(
    GAME_NAMES.map((game) => [game, rulesOf(game).words.translations.fr?.title ?? rulesOf(game).title]),
  ) as GameWords['titles'],
  optionLabels: { end: 'La partie se termine après', specials: 'Cartes spéciales', passing: 'Passe' },
  choiceLabels: {
    allSuits: 'la première équipe à marquer les sept couleurs',
    'hands:1': 'une donne',
    'hands:2': '2 donnes',
    'hands:3': '3 donnes',
    'hands:5': '5 donnes',
    'hands:7': '7 donnes',
    'marriages:10': 'la première à 10 mariages',
    off: 'sans cartes spéciales',
    plain: 'cartes spéciales simples',
    powers: 'cartes spéciales avec pouvoirs',
    none: 'sans passe',
    oneEach: 'passer une carte à chaque joueur',
  },
  end: (rules) => frenchOf(rules)?.end(rules.options) ?? rules.endWords,
  summary: (rules) => frenchOf(rules)?.summary ?? rules.rulesSummary,

  teamLower: (team) => `équipe ${team}`,
  partnership: (side) => `Partenariat ${side}`,
  antiCupid: 'Anti-Cupid',
  traitor: 'Traître',
  matchmaker: 'Entremetteur',
  theTraitor: 'le Traître',
  aMatchmaker: 'un Entremetteur',

  suits: ['Piques', 'Lunes', 'Carreaux', 'Trèfles', 'Étoiles', 'Pyramides', 'Cœurs'],
  specials: { cupid: 'Cupidon', chaperone: 'Chaperon', rival: 'Rival', 'go-between': 'Intermédiaire' },
  specialFaces: { chaperone: ['Chape', 'ron'], 'go-between': ['Inter', 'médiaire'] },
  cardOf: (rank, suit) => `${rank} de ${suit}`,
  specialPowers: {
    cupid: 'Avec pouvoirs : qui a joué Cupidon gagne la levée.',
    chaperone:
      'Avec pouvoirs : personne ne prend la levée ; ses cartes sont mises de côté, et un 7 mis de côté ne peut pas être marié dans cette donne.',
    rival: 'Avec pouvoirs : la plus basse carte de la couleur demandée gagne, et les atouts sont ignorés.',
    'go-between': 'Avec pouvoirs : la levée est gagnée comme d’habitude, mais c’est le joueur à gauche du gagnant qui prend les cartes.',
  },
  specialPlain:
    'Une carte spéciale peut être jouée sur n’importe quelle levée, même si vous pouviez fournir, mais pas entamée tant que vous avez une carte de couleur. Elle ne gagne jamais de levée.',
  sevenHelp: (card, suit) =>
    `${card} : l’un des deux 7 de ${suit} (a et b ne servent qu’à les distinguer ; si les deux gagneraient, le premier joué gagne). Prenez les deux dans une donne pour marier ${suit}.`,
  sevensExplained:
    'Chaque couleur a deux 7, notés 7a et 7b. Les lettres ne servent qu’à distinguer les deux cartes : elles ont la même valeur, et quand les deux gagneraient une levée, celle jouée en premier gagne.',

  gameEnds: 'La partie se termine : ',
  tricksAndTrump: 'Levées et atout',
  tricks: [
    'Qui a le 1 de Piques entame la première levée (après la passe), avec n’importe quelle carte.',
    'L’atout de toute la donne est la couleur de la première carte entamée.',
    'Fournissez la couleur demandée si vous le pouvez ; sinon, jouez n’importe quelle carte.',
    'Le plus fort atout gagne la levée ; sans atout, la plus forte carte de la couleur demandée. Le gagnant entame la suivante.',
  ],
  marriagesAndSevens: 'Les mariages et les deux 7',
  marriage: 'Un camp marie une couleur quand il prend les deux 7 de cette couleur dans une même donne. Les 7 pris sont montrés à tous.',
  specialCards: 'Cartes spéciales',
  specialCardsWithPowers: 'Cartes spéciales, avec pouvoirs',
  specialRules: [
    [
      'Cartes spéciales (simples)',
      'Cupidon, Chaperon, Rival et Intermédiaire peuvent être joués sur n’importe quelle levée, même si vous pouviez fournir, mais pas entamés tant que vous avez une carte de couleur. Ils ne gagnent jamais de levée.',
      false,
    ],
    ['Cupidon (pouvoirs)', 'Qui a joué Cupidon gagne la levée.', true],
    [
      'Chaperon (pouvoirs)',
      'Personne ne prend la levée : ses cartes sont mises de côté, et un 7 mis de côté ne peut pas être marié dans cette donne.',
      true,
    ],
    ['Rival (pouvoirs)', 'La plus basse carte de la couleur demandée gagne ; les atouts sont ignorés.', true],
    [
      'Intermédiaire (pouvoirs)',
      'La levée est gagnée comme d’habitude, mais c’est le joueur à gauche du gagnant qui prend les cartes.',
      true,
    ],
  ],
  powersInOrder: 'Plusieurs pouvoirs dans une levée agissent dans l’ordre où ils ont été joués ; un Chaperon y met fin.',
  hoverForHelp: 'Survolez une carte pour voir ce qu’elle fait.',
};
