// The criteria French law forbids in a job ad, as the words that state them,
// in French and English: an upper age limit (Code du travail L5331-2), and
// the grounds no hiring may rest on (L1132-1, L1142-1). The patterns look
// for a criterion *required or excluded*, never for its word alone: "ouvert
// aux personnes en situation de handicap", an equal-opportunity sentence
// naming every ground, "jeune pousse", "family business", "âge" inside
// "stage" or "ménage" say nothing forbidden. They read the text without
// accents (text.ts), so they are written without accents, and match in
// either case. What they find is for the board to judge: they flag, never hide.
import { quote } from './text.ts';
import type { OfferText } from './text.ts';

/** The grounds of L1132-1 a job ad may not state (age beyond an upper limit has its own rule). */
export const CRITERIA = [
  'age',
  'sex',
  'origin',
  'family situation',
  'pregnancy',
  'health',
  'disability',
  'religion',
  'political opinions',
  'union activity',
  'sexual orientation',
  'physical appearance',
  'surname',
  'place of residence',
] as const;
export type Criterion = (typeof CRITERIA)[number];

/** A letter or digit of any script: JavaScript's \b knows ASCII ones and _ only, and the folded text keeps letters without an ASCII base (œ, ß, ł). */
const WORD_CHAR = '[\\p{L}\\p{N}]';

/** One pattern matching any of `alternatives` as whole words (no letter or digit glued before or after). */
function words(alternatives: readonly string[]): RegExp {
  return new RegExp(`(?<!${WORD_CHAR})(?:${alternatives.join('|')})(?!${WORD_CHAR})`, 'giu');
}

/** An age in years an ad could set as a limit (16 to 69), not a count of years of experience. */
const AGE = '(?:1[6-9]|[2-6]\\d)';
/** After "N ans": not years of experience, seniority, a company's or a contract's. */
const NOT_EXPERIENCE =
  "(?!\\s*(?:d'\\s*|de\\s+)(?:experience|anciennete|existence|metier|pratique|carriere|contrat|etudes|activite|presence))";

/**
 * Not the ages of the people the job serves: "accompagner des jeunes de moins
 * de 26 ans", "young people aged 16-25" describe a youth worker's public.
 */
const NOT_ABOUT_PUBLIC =
  '(?<!(?:jeunes|enfants|eleves|etudiants|adolescents|publics?|patients|residents|beneficiaires|personnes|usagers|mineurs|people|children|students|pupils|teenagers|youths?)(?:\\s+\\p{L}+){0,2}\\s+)';

/** An upper age limit, French then English. "Sans limite d'âge", "no age limit" say the opposite. */
export const UPPER_AGE_LIMIT = words(
  [
    `(?:moins\\s+de|maximum|max\\.?|au\\s+plus|jusqu'\\s*a|pas\\s+plus\\s+de|n'\\s*excedant\\s+pas)\\s+${AGE}\\s*ans${NOT_EXPERIENCE}`,
    `${AGE}\\s*ans\\s+(?:maximum|max|maxi|au\\s+plus)`,
    "(?<!(?:sans|aucune|pas\\s+de)\\s+)limite\\s+d'\\s*age",
    'age\\s+(?:maximum|maximal|max|limite)',
    `agee?s?\\s+de\\s+${AGE}\\s*(?:a|-|–)\\s*${AGE}\\s*ans`,
    `entre\\s+${AGE}\\s+et\\s+${AGE}\\s+ans${NOT_EXPERIENCE}`,
    `under\\s+the\\s+age\\s+of\\s+${AGE}`,
    `under\\s+${AGE}\\s+years?\\s+(?:old|of\\s+age)`,
    `(?:aged|ages)\\s+(?:between\\s+)?${AGE}\\s*(?:-|–|to|and)\\s*${AGE}`,
    `between\\s+the\\s+ages\\s+of\\s+${AGE}\\s+and\\s+${AGE}`,
    '(?:maximum|max\\.?)\\s+age',
    '(?<!(?:no|without|any)\\s+)age\\s+limit',
    `(?:no|not)\\s+older\\s+than\\s+${AGE}`,
    `${AGE}\\s+years\\s+old\\s+(?:or\\s+younger|maximum|max|at\\s+most)`,
    `over\\s+${AGE}s?\\s+need\\s+not\\s+apply`,
  ].map((limit) => NOT_ABOUT_PUBLIC + limit),
);

/** Per ground, the ways an ad requires or excludes it. */
export const CRITERION_PATTERNS: Record<Criterion, RegExp> = {
  age: words([
    'jeunes?\\s+et\\s+dynamiques?',
    'jeunes?\\s+(?:homme|femme|fille|garcon)s?',
    "(?:seniors?|retraitee?s?)\\s+s'\\s*abstenir",
    '(?:young|youthful)\\s+(?:and\\s+(?:dynamic|energetic)|candidates?|applicants?|man|men|woman|women|guys?|girls?)',
    'digital\\s+natives?',
  ]),
  sex: words([
    '(?:hommes?|femmes?)\\s+(?:uniquement|seulement|exclusivement)',
    '(?:uniquement|seulement|exclusivement)\\s+(?:des\\s+|aux\\s+)?(?:hommes|femmes)',
    'reservee?s?\\s+aux\\s+(?:hommes|femmes)',
    'sexe\\s+(?:masculin|feminin)',
    '(?:recherch|cherch)\\p{L}*\\s+(?:un|une)\\s+(?:jeune\\s+)?(?:homme|femme)(?!\\s+(?:ou|\\/)\\s)(?!\\s+de\\s+menage)',
    '(?:males?|females?|men|women)\\s+only',
    'only\\s+(?:males?|females?|men|women)',
    '(?:male|female)\\s+(?:candidates?|applicants?)\\s+(?:only|preferred)',
    '(?:must|should)\\s+be\\s+(?:a\\s+)?(?:male|female|man|woman)',
    'preferably\\s+(?:a\\s+)?(?:male|female|man|woman)',
  ]),
  origin: words([
    "(?:candidate?|personne|profil)s?\\s+d'\\s*origine\\s+\\p{L}+",
    '(?:francaise?|europeenne?)s?\\s+de\\s+souche',
    'de\\s+type\\s+(?:europeen|caucasien|maghrebin|africain|asiatique)(?:ne)?',
    'de\\s+langue\\s+maternelle\\s+\\p{L}+',
    'nationalite\\s+(?:francaise|europeenne)\\s+(?:exigee|obligatoire|requise|imperative)',
    'native\\s+(?:\\p{L}+\\s+)?speakers?',
    '(?:white|caucasian)\\s+(?:candidates?|applicants?|people|only)',
    '(?:french|eu|european|british|us)\\s+(?:citizens?|nationals?)\\s+only',
  ]),
  'family situation': words([
    '(?<!(?:logements?|chambres?|studios?)\\s+)celibataires?',
    'sans\\s+enfants?',
    "pas\\s+d'\\s*enfants?",
    '(?:single|unmarried|childless)\\s+(?:candidates?|applicants?|only|preferred)',
    '(?:must|should)\\s+(?:be\\s+(?:single|unmarried|married)|have\\s+no\\s+(?:children|kids))',
  ]),
  pregnancy: words([
    '(?:pas|sans|aucune?)\\s+(?:de\\s+)?(?:projet\\s+de\\s+)?grossesse',
    '(?:non|pas)\\s+enceintes?',
    'not\\s+pregnant',
    'no\\s+pregnan(?:cy|t\\s+(?:women|candidates?|applicants?))',
    'pregnant\\s+(?:women|candidates?|applicants?)\\s+(?:need\\s+not|should\\s+not|cannot|may\\s+not)',
  ]),
  health: words([
    'en\\s+(?:parfaite|bonne|excellente)\\s+sante(?!\\s+(?:financiere|economique|commerciale))',
    '(?:parfaite|bonne)\\s+sante\\s+(?:exigee|requise|obligatoire)',
    '(?:aucun|sans)\\s+(?:probleme|antecedent)s?\\s+(?:de\\s+sante|medica(?:l|ux))',
    'in\\s+(?:perfect|good|excellent)\\s+health',
    'healthy\\s+(?:candidates?|applicants?)',
    'no\\s+(?:health\\s+(?:problems?|issues?|conditions?)|medical\\s+(?:conditions?|history))',
  ]),
  disability: words([
    'pas\\s+de\\s+(?:personnes?\\s+|travailleurs?\\s+)?handicapee?s?',
    '(?:sans|aucun)\\s+handicap',
    'non\\s+handicapee?s?',
    '(?:personnes?|candidate?s?)\\s+valides?',
    '(?:no|without)\\s+disabilit(?:y|ies)',
    'not\\s+disabled',
    'able[-\\s]bodied\\s+(?:candidates?|applicants?|persons?|people)',
  ]),
  religion: words([
    '(?:musulman|chretien|catholique|juif|juive|protestant|bouddhiste|athee|hindou)e?s?\\s+(?:uniquement|exclusivement|de\\s+preference|exigee?s?|requise?s?)',
    '(?:pas\\s+de|sans|aucun)\\s+(?:voile|foulard|signes?\\s+religieux)',
    '(?:christian|muslim|jewish|catholic|protestant|hindu|buddhist)s?\\s+(?:only|preferred)',
    '(?:no|without)\\s+(?:headscarf|headscarves|hijab|veil|religious\\s+symbols?)',
  ]),
  'political opinions': words([
    "(?:pas\\s+d'|aucune?\\s+|sans\\s+)\\s*(?:engagement|activite|appartenance|affiliation|militantisme|opinion)s?\\s+politiques?",
    "(?:sympathisant|militant|adherent|encarte)e?s?\\s+(?:du|de\\s+la|d'\\s*un|a\\s+un|au)\\s+(?:parti|mouvement)",
    'no\\s+political\\s+(?:activists?|affiliations?|activity|activities)',
    '(?:must|should)\\s+(?:support|be\\s+a\\s+member\\s+of)\\s+the\\s+\\p{L}+\\s+party',
  ]),
  'union activity': words([
    'non[-\\s]?syndiquee?s?',
    "(?:pas\\s+d'|aucune?\\s+|sans\\s+)\\s*(?:activite|appartenance|engagement|mandat|passe|adhesion)s?\\s+syndica(?:l|le|les|ux)",
    'pas\\s+de\\s+syndicalistes?',
    'no\\s+union\\s+(?:members?|activists?|activity|activities|affiliation)',
    'union\\s+members\\s+need\\s+not\\s+apply',
    'non[-\\s]union(?:ized)?\\s+(?:candidates?|applicants?|workers?)\\s+only',
  ]),
  'sexual orientation': words([
    "(?:heterosexuel|homosexuel|gay|lesbienne|bisexuel)(?:le)?s?\\s+(?:uniquement|exclusivement|s'\\s*abstenir|de\\s+preference)",
    "(?:pas\\s+d'|aucun\\s+)\\s*homosexuel(?:le)?s?",
    '(?:straight|heterosexual|gay|lesbian)s?\\s+(?:only|preferred)',
    'no\\s+(?:gays?|homosexuals?|lesbians?)',
  ]),
  'physical appearance': words([
    'physique\\s+(?:agreable|avantageux|attrayant|attractif|plaisant)',
    '(?:belle|jolie|bonne)\\s+(?:plastique|apparence)',
    '(?:belle|jolie)\\s+(?:presentation|femme|fille|silhouette)',
    '(?:taille|mesurant)\\s+(?:minimum|minimale|min\\.?|au\\s+moins|plus\\s+de)?\\s*:?\\s*1\\s*m\\s*\\d{2}',
    '1\\s*m\\s*\\d{2}\\s+(?:minimum|min)',
    '(?:attractive|good[-\\s]looking|pleasant[-\\s]looking)\\s+(?:candidates?|applicants?|appearance|women|woman|men|man|girls?|person)',
    'pleasant\\s+appearance',
    'minimum\\s+height',
  ]),
  surname: words([
    "nom\\s+(?:de\\s+famille\\s+)?(?:a\\s+consonance|d'\\s*origine)(?:\\s+\\p{L}+)?",
    'consonance\\s+(?:francaise|etrangere|europeenne)',
    '(?:english|french|european|foreign)[-\\s]sounding\\s+(?:names?|surnames?)',
  ]),
  'place of residence': words([
    '(?:doit|devez|devra|devrez|devront|etre)\\s+(?:obligatoirement\\s+|imperativement\\s+)?(?:habiter|resider|domiciliee?s?)',
    '(?:domiciliee?s?|habiter|resider)\\s+(?:obligatoirement|imperativement)',
    '(?:pas\\s+de|sans)\\s+candidat(?:ure)?s?\\s+(?:de|des|venant\\s+de?s?|issue?s?\\s+de?s?)\\s+(?:banlieues?|quartiers?|cites?)',
    'candidats?\\s+(?:locaux|de\\s+la\\s+region)\\s+(?:uniquement|exclusivement)',
    '(?:must|should)\\s+(?:live|reside)\\s+(?:in|within|near|locally)',
    'local\\s+(?:candidates?|applicants?)\\s+only',
    '(?:residents?\\s+of\\s+\\p{L}+|locals)\\s+only',
  ]),
};

/** The words each match of `pattern` found in the offer's text, quoted, the first `max` of them. */
export function quotesOf(pattern: RegExp, { text, folded }: OfferText, max = 3): string[] {
  const quotes: string[] = [];
  for (const match of folded.matchAll(pattern)) {
    const quoted = quote(text, match.index, match[0].length);
    if (!quotes.includes(quoted)) quotes.push(quoted);
    if (quotes.length === max) break;
  }
  return quotes;
}

/** The forbidden grounds an offer's text states, each with the words that state it. */
export function forbiddenCriteria(text: OfferText): { criterion: Criterion; quotes: string[] }[] {
  return CRITERIA.map((criterion) => ({ criterion, quotes: quotesOf(CRITERION_PATTERNS[criterion], text) })).filter(
    (found) => found.quotes.length > 0,
  );
}
