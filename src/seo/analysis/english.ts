// Word lists for the English assessments. Written for this project; matched case-insensitively on
// whole words.

/**
 * Transition words and phrases: they tie a sentence to the one before it (addition, contrast,
 * cause, sequence, example, summary). A sentence containing any of them counts as a transition
 * sentence.
 */
export const TRANSITION_WORDS: readonly string[] = [
  // addition
  'also', 'additionally', 'furthermore', 'moreover', 'besides', 'likewise', 'similarly', 'too',
  'in addition', 'as well as', 'not only', 'what is more', 'along with', 'equally important',
  'in the same way', 'again',
  // contrast and concession
  'however', 'nevertheless', 'nonetheless', 'although', 'though', 'whereas', 'yet', 'but', 'still',
  'instead', 'conversely', 'meanwhile', 'otherwise', 'despite', 'in contrast', 'on the other hand',
  'on the contrary', 'even so', 'even though', 'in spite of', 'rather than', 'unlike', 'admittedly',
  'regardless',
  // cause and effect
  'because', 'therefore', 'thus', 'hence', 'consequently', 'accordingly', 'since', 'so that',
  'as a result', 'for this reason', 'due to', 'owing to', 'thanks to', 'in order to', 'so as to',
  'that is why',
  // sequence and time
  'first', 'firstly', 'second', 'secondly', 'third', 'thirdly', 'next', 'then', 'finally', 'lastly',
  'afterwards', 'later', 'previously', 'subsequently', 'eventually', 'initially', 'now', 'before',
  'after', 'until', 'whenever', 'at first', 'at last', 'in the meantime', 'after that',
  'to begin with', 'at the same time', 'in the end', 'first of all', 'last but not least',
  // example and emphasis
  'for example', 'for instance', 'such as', 'namely', 'specifically', 'especially', 'particularly',
  'notably', 'indeed', 'in fact', 'of course', 'in particular', 'to illustrate', 'in other words',
  'that is to say', 'above all', 'certainly', 'clearly', 'obviously', 'undoubtedly',
  // summary and conclusion
  'overall', 'ultimately', 'in conclusion', 'to conclude', 'in summary', 'to summarise',
  'to summarize', 'in short', 'in brief', 'all in all', 'on the whole', 'in general', 'generally',
  'as shown', 'to sum up',
  // condition
  'if', 'unless', 'provided that', 'in case', 'as long as', 'even if',
];

/** Forms of "to be" that open a passive construction. */
export const BE_FORMS: ReadonlySet<string> = new Set([
  'am', 'is', 'are', 'was', 'were', 'be', 'been', 'being', "isn't", "aren't", "wasn't", "weren't",
  "it's", "that's", "he's", "she's", "there's",
]);

/** Words that may stand between the be-form and the participle ("was not seen", "is often used"). */
export const PASSIVE_GAP_WORDS: ReadonlySet<string> = new Set([
  'not', 'also', 'often', 'always', 'never', 'already', 'just', 'still', 'usually', 'sometimes',
  'rarely', 'being', 'been', 'be', 'all', 'both', 'then', 'now', 'even', 'only', 'ever',
]);

/** Past participles that do not end in -ed. */
export const IRREGULAR_PARTICIPLES: ReadonlySet<string> = new Set([
  'arisen', 'awoken', 'beaten', 'become', 'begun', 'bent', 'bet', 'bid', 'bitten', 'bled', 'blown',
  'born', 'borne', 'bought', 'bound', 'bred', 'broken', 'brought', 'built', 'burnt', 'burst', 'cast',
  'caught', 'chosen', 'clung', 'come', 'cost', 'crept', 'cut', 'dealt', 'done', 'drawn', 'dreamt',
  'driven', 'drunk', 'dug', 'eaten', 'fallen', 'fed', 'felt', 'fought', 'found', 'fled', 'flung',
  'flown', 'forbidden', 'forecast', 'forgotten', 'forgiven', 'frozen', 'given', 'gone', 'ground',
  'grown', 'hung', 'heard', 'held', 'hidden', 'hit', 'hurt', 'kept', 'knelt', 'known', 'laid', 'led',
  'leant', 'learnt', 'left', 'lent', 'let', 'lain', 'lit', 'lost', 'made', 'meant', 'met', 'mistaken',
  'misunderstood', 'overcome', 'overtaken', 'overthrown', 'paid', 'proven', 'put', 'quit', 'read',
  'rid', 'ridden', 'rung', 'risen', 'run', 'said', 'seen', 'sought', 'sold', 'sent', 'set', 'sewn',
  'shaken', 'shed', 'shone', 'shot', 'shown', 'shrunk', 'shut', 'sung', 'sunk', 'sat', 'slain',
  'slept', 'slid', 'slung', 'smelt', 'sown', 'spoken', 'sped', 'spelt', 'spent', 'spilt', 'spun',
  'spat', 'split', 'spoilt', 'spread', 'sprung', 'stood', 'stolen', 'stuck', 'stung', 'stunk',
  'stridden', 'struck', 'strung', 'striven', 'sworn', 'swept', 'swollen', 'swum', 'swung', 'taken',
  'taught', 'torn', 'told', 'thought', 'thrown', 'thrust', 'trodden', 'understood', 'undergone',
  'undertaken', 'undone', 'upset', 'woken', 'worn', 'woven', 'wept', 'won', 'wound', 'withdrawn',
  'withheld', 'written', 'wrung',
]);

/** Words ending in -ed that are no participles. */
export const NOT_PARTICIPLES: ReadonlySet<string> = new Set([
  'bed', 'red', 'need', 'seed', 'feed', 'speed', 'weed', 'breed', 'creed', 'greed', 'deed', 'heed',
  'sled', 'indeed', 'hundred', 'embed', 'exceed', 'proceed', 'succeed', 'wed',
  'naked', 'wicked', 'sacred', 'kindred', 'rugged', 'ragged', 'shred',
]);

/** Function words ignored when matching a keyphrase's words (English). */
export const FUNCTION_WORDS: ReadonlySet<string> = new Set([
  'a', 'an', 'the', 'and', 'or', 'but', 'of', 'to', 'in', 'on', 'at', 'for', 'with', 'by', 'from',
  'as', 'is', 'are', 'was', 'were', 'be', 'it', 'its', 'this', 'that', 'these', 'those', 'how',
  'what', 'why', 'when', 'where', 'who', 'which', 'do', 'does', 'your', 'you', 'my', 'our', 'i',
]);
