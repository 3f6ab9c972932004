/** The words of a table of friends in French, entry for entry as enFriends.ts. */
import type { FriendsWords } from './enFriends.js';

export const frFriends: FriendsWords = {
  phrases: {
    hello: { shown: 'Bonjour !', said: 'Bonjour !' },
    goodLuck: { shown: 'Bonne chance !', said: 'Bonne chance !' },
    wellPlayed: { shown: 'Bien joué !', said: 'Bien joué !' },
    oops: { shown: 'Oups !', said: 'Oups !' },
    thanks: { shown: 'Merci !', said: 'Merci !' },
    goodGame: { shown: 'Belle partie !', said: 'Belle partie !' },
    thinking: { shown: '🤔', said: 'réfléchit' },
    laugh: { shown: '😂', said: 'rit' },
    wow: { shown: '😮', said: 'est épaté' },
    cheer: { shown: '🎉', said: 'applaudit' },
  },
  tableChat: 'Discussion de la table',
  quickChat: 'Messages rapides',
  quickChatMuted: 'Messages rapides (muets)',
  sayToTheTable: 'Dire à la table',
  muteChat: 'Couper les messages à cette table',

  tips: {
    traitor:
      'Vous êtes le Traître pour cette donne : vous marquez quand l’autre équipe se marie, et perdez des points pour les mariages de votre équipe. Restez discret ; vos coéquipiers vont essayer de vous désigner.',
    pass: 'D’abord, la passe : choisissez une carte pour chaque joueur nommé ci-dessous, puis appuyez sur « Passer ces cartes ». Donnez les cartes avec lesquelles vous ne voulez pas gagner de levées.',
    trump: 'La première carte entamée fixe l’atout pour toute la donne : cette couleur bat toutes les autres jusqu’à la fin de la donne.',
    marriage:
      'Un 7 a été pris. Chaque couleur a deux 7 (7a et 7b) : le camp qui prend les deux 7 d’une couleur dans une même donne la marie, et ce sont les mariages qui comptent.',
  },
  gotIt: 'Compris',
  firstGameTip: 'Conseil de première partie',

  rematch: 'Revanche',
  acceptRematch: 'Accepter la revanche',
  decline: 'Refuser',
  proposeRematch: 'Proposer une revanche',
  you: 'Vous',
  seatOf: (name, seat) => `${name} (place ${seat})`,
  seat: (seat) => `Place ${seat}`,
  answers: { proposed: 'l’a proposée', waiting: 'n’a pas encore répondu', accepted: 'a accepté', declined: 'a refusé' },
  proposes: (proposer, own) => `${proposer} ${own ? 'proposez' : 'propose'} une revanche.`,
  rematchStarted: 'La revanche a commencé.',
  rematchDeclined: 'La revanche a été refusée.',
  rematchExpired: 'La revanche a expiré : elle n’a pas été acceptée à temps.',
  answered: (name, answer) => `${name} : ${answer}`,
  watchTheRematch: 'Regarder la revanche',
  expiresIn: (seconds) => `Elle expire dans ${seconds} s ; ceux qui ont accepté jouent, des robots prennent les autres places.`,

  invitePlayers: (open) => `Inviter des joueurs (${open} place${open === 1 ? ' libre' : 's libres'})`,
  sendALink: 'Envoyez un lien à un ami : en l’ouvrant, il donne son nom et prend sa place.',
  inviteLinkFor: (seat) => `Lien d’invitation pour la place ${seat}`,
  copy: 'Copier',
  copied: 'Copié ✓',
  openWord: 'libre',
  nowHeldBy: (name) => `maintenant ${name}`,
  inviteSeat: (seat, who) => `Place ${seat} (${who})`,
  enterYourName: 'Entrez votre nom : les autres joueurs le voient à la table.',
  loadingTheTable: 'Chargement de la table…',
  invitedTo: (seat) => `Vous êtes invité à la place ${seat}`,
  yourName: 'Votre nom ',
  takeTheSeat: 'Prendre la place',
  justWatch: 'Seulement regarder',
  aboutTable: (game, tableId, players) => `${game} à la table ${tableId}${players.length === 0 ? '' : `, avec ${players.join(', ')}`}.`,
  seatTaken: (seat) => ` La place ${seat} est déjà prise.`,

  inPlaceOf: (seat, name) => `Place ${seat} · à la place de ${name}`,
  playOn: 'Rejouer',
  cancel: 'Annuler',
  playOnFrom: (at) => `Rejouer à partir de l’événement ${at}`,
  playOnExplained:
    'Une nouvelle table commence telle que la partie se trouvait juste après cet événement, avec des robots à toutes les autres places (les personnes que vous invitez peuvent prendre la leur).',
  yourSeat: 'Votre place ',
};
