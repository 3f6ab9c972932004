/** The words of a table of friends in English: quick chat, the coach, the rematch, invites and "Play on from here". */
import type { ChatPhrase } from '../../../socketProtocol.js';

export const enFriends = {
  // Quick chat (quickChat.ts): each phrase as shown, and as said to a screen reader
  phrases: {
    hello: { shown: 'Hello!', said: 'Hello!' },
    goodLuck: { shown: 'Good luck!', said: 'Good luck!' },
    wellPlayed: { shown: 'Well played!', said: 'Well played!' },
    oops: { shown: 'Oops!', said: 'Oops!' },
    thanks: { shown: 'Thanks!', said: 'Thanks!' },
    goodGame: { shown: 'Good game!', said: 'Good game!' },
    thinking: { shown: '🤔', said: 'is thinking' },
    laugh: { shown: '😂', said: 'laughs' },
    wow: { shown: '😮', said: 'is amazed' },
    cheer: { shown: '🎉', said: 'cheers' },
  } as Readonly<Record<ChatPhrase, { readonly shown: string; readonly said: string }>>,
  tableChat: 'Table chat',
  quickChat: 'Quick chat',
  quickChatMuted: 'Quick chat (muted)',
  sayToTheTable: 'Say to the table',
  muteChat: 'Mute chat at this table',

  // The first-game coach (coach.ts)
  tips: {
    traitor:
      'You are the Traitor this hand: you score when the other team marries, and lose points for your own team’s marriages. Keep it hidden; your teammates will try to name you.',
    pass: 'First, pass: pick one card for each player named below, then press "Pass these cards". Give away cards you do not want to win tricks with.',
    trump: 'The first card led sets trump for the whole hand: that suit beats every other suit until the hand ends.',
    marriage:
      'A 7 was captured. Each suit has two 7s (7a and 7b): a side that captures both 7s of a suit in one hand marries it, and marriages are what score.',
  } as Readonly<Record<'pass' | 'trump' | 'marriage' | 'traitor', string>>,
  gotIt: 'Got it',
  firstGameTip: 'First-game tip',

  // The shared rematch (rematchOffer.ts)
  rematch: 'Rematch',
  acceptRematch: 'Accept the rematch',
  decline: 'Decline',
  proposeRematch: 'Propose a rematch',
  you: 'You',
  seatOf: (name: string, seat: number) => `${name} (seat ${seat})`,
  seat: (seat: number) => `Seat ${seat}`,
  answers: { proposed: 'proposed it', waiting: 'has not answered yet', accepted: 'accepted', declined: 'declined' } as Readonly<
    Record<'proposed' | 'waiting' | 'accepted' | 'declined', string>
  >,
  proposes: (proposer: string, own: boolean) => `${proposer} ${own ? 'propose' : 'proposes'} a rematch.`,
  rematchStarted: 'The rematch has started.',
  rematchDeclined: 'The rematch was declined.',
  rematchExpired: 'The rematch expired: it was not accepted in time.',
  answered: (name: string, answer: string) => `${name}: ${answer}`,
  watchTheRematch: 'Watch the rematch',
  expiresIn: (seconds: number) => `It expires in ${seconds} s; those who accepted play, bots take the other seats.`,

  // Invites and the join page (invites.ts)
  invitePlayers: (open: number) => `Invite players (${open} open seat${open === 1 ? '' : 's'})`,
  sendALink: 'Send a link to a friend: opening it asks their name and seats them.',
  inviteLinkFor: (seat: number) => `Invite link for seat ${seat}`,
  copy: 'Copy',
  copied: 'Copied ✓',
  openWord: 'open',
  nowHeldBy: (name: string) => `now ${name}`,
  inviteSeat: (seat: number, who: string) => `Seat ${seat} (${who})`,
  enterYourName: 'Enter your name: the other players see it at the table.',
  loadingTheTable: 'Loading the table…',
  invitedTo: (seat: number) => `You are invited to seat ${seat}`,
  yourName: 'Your name ',
  takeTheSeat: 'Take the seat',
  justWatch: 'Just watch',
  aboutTable: (game: string, tableId: string, players: readonly string[]) =>
    `${game} at table ${tableId}${players.length === 0 ? '' : `, with ${players.join(', ')}`}.`,
  seatTaken: (seat: number) => ` Seat ${seat} is already taken.`,
  startBots: 'Play on with bots in the open seats',

  // "Play on from here" (playOn.ts)
  inPlaceOf: (seat: number, name: string) => `Seat ${seat} · in place of ${name}`,
  playOn: 'Play on',
  cancel: 'Cancel',
  playOnFrom: (at: number) => `Play on from event ${at}`,
  playOnExplained:
    'A new table starts as this game stood right after this event, with bots in every other seat (anyone you invite may take theirs).',
  yourSeat: 'Your seat ',
};

export type FriendsWords = typeof enFriends;
