/** The games' own words in French, entry for entry as enGame.ts; options and values by their keys. */
import type { SevenSuitorsOptions } from '../../../../../machines/table/optionTypes.js';
import { parseEnd } from '../../../../../machines/table/options.js';
import type { GameWords, RulesView } from './enGame.js';

/** The number the table's own (English) end words give, so a later rules version's figure is kept. */
function figureIn(words: string, otherwise: number): number {
  const found = /\d+/.exec(words);
  return found === null ? otherwise : Number(found[0]);
}

function sevenSuitorsEnd(rules: RulesView): string {
  const end = parseEnd((rules.options as SevenSuitorsOptions).end);
  if (end.kind === 'allSuits') return 'la première équipe à marier les sept couleurs';
  if (end.kind === 'hands') return `${end.hands} donne${end.hands === 1 ? '' : 's'}, puis le plus de couleurs marquées`;
  return `la première équipe à ${end.marriages} mariages`;
}

const TEAMS_OF_FOUR =
  'Quatre joueurs en deux équipes : les places 0 et 2 (équipe A) contre les places 1 et 3 (équipe B) ; les partenaires sont face à face.';

export const frGame: GameWords = {
  titles: {
    sevenSuitors: 'Seven Suitors',
    firstLesson: 'Seven Suitors : une première leçon',
    traitorOfLove: 'A Traitor of Love',
    antiCupid: 'Anti-Cupid',
  },
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
  end: (rules) => {
    switch (rules.game) {
      case 'sevenSuitors':
      case 'firstLesson':
        return sevenSuitorsEnd(rules);
      case 'traitorOfLove':
        return `la donne après laquelle quelqu’un a plus de ${figureIn(rules.endWords, 15)} points`;
      case 'antiCupid':
        return 'cinq donnes : chacun est Anti-Cupid une fois';
    }
  },
  summary: (rules) => {
    switch (rules.game) {
      case 'sevenSuitors':
        return [
          TEAMS_OF_FOUR,
          'Avant de jouer, chacun passe en même temps une carte à chacun des autres joueurs.',
          'Chaque couleur que votre équipe marie est marquée pour votre équipe jusqu’à la fin de la partie, et compte comme un mariage.',
        ];
      case 'firstLesson':
        return [
          TEAMS_OF_FOUR,
          'Ni passe ni cartes spéciales : vous jouez les cartes qui vous sont distribuées.',
          'Chaque couleur que votre équipe marie est marquée pour votre équipe ; après la dernière donne, l’équipe qui a le plus de couleurs marquées gagne (puis le plus de mariages).',
        ];
      case 'traitorOfLove':
        return [
          'Six joueurs en deux équipes qui alternent autour de la table : les places 0, 2, 4 (équipe A) et 1, 3, 5 (équipe B).',
          'À chaque donne, une carte de rôle secrète est distribuée : qui reçoit Cœurs est le Traître ; tous les autres sont des Entremetteurs. Vous seul connaissez votre rôle.',
          'Chacun passe une carte à chaque joueur de l’autre équipe.',
          'Les Entremetteurs marquent 1 pour chaque mariage de leur équipe. Le Traître veut que l’autre équipe se marie : 1 point pour chacun de ses mariages, rien pour ceux de sa propre équipe.',
          'Après la dernière levée, chacun désigne en secret un coéquipier. Dans l’équipe du Traître, un Entremetteur qui a désigné le Traître marque +2 ; le Traître perd 1 pour chaque coéquipier qui l’a désigné et gagne 1 pour chacun des autres.',
          `La partie se termine après une donne où quelqu’un dépasse ${figureIn(rules.endWords, 15)} points ; le meilleur score gagne.`,
        ];
      case 'antiCupid':
        return [
          'Cinq joueurs ; à chaque donne, l’un d’eux est Anti-Cupid et joue seul. Le rôle passe d’une place vers la gauche à chaque donne : chacun est Anti-Cupid une fois en cinq donnes.',
          'En comptant à partir de la gauche d’Anti-Cupid, le 1er et le 3e joueur sont partenaires (A), de même que le 2e et le 4e (B).',
          'Un partenariat qui marie une couleur marque 1 point pour chacun de ses deux joueurs.',
          'Anti-Cupid ne veut aucun mariage : il marque 1 pour chaque couleur restée non mariée (ses 7 partagés, ou l’un mis de côté). Si Anti-Cupid prend les deux 7 d’une couleur, les quatre autres marquent 1 chacun.',
          'Après cinq donnes, le plus de points gagne.',
        ];
    }
  },

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
