// The words that state a criterion French law forbids in a job ad, and the
// many that only look like them: each pattern is shown finding what it is
// for, in French and English, and the near misses are shown left alone.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CRITERIA, UPPER_AGE_LIMIT, forbiddenCriteria, quotesOf } from './criteria.ts';
import type { Criterion } from './criteria.ts';
import { offerTextOf } from './text.ts';

const textOf = (words: string) => offerTextOf([words]);
const upperAgeLimit = (words: string) => quotesOf(UPPER_AGE_LIMIT, textOf(words));
const criteriaOf = (words: string) => forbiddenCriteria(textOf(words)).map((found) => found.criterion);

/** One test a text of `texts`: each of `finders` finds nothing in it. */
function findsNoneIn(texts: string[], ...finders: ((words: string) => unknown[])[]): void {
  for (const words of texts) {
    it(`finds none in "${words}"`, () => {
      for (const find of finders) assert.deepEqual(find(words), []);
    });
  }
}

describe('an upper age limit', () => {
  const limits: [string, string][] = [
    ['Candidat âgé de moins de 30 ans.', '"moins de 30 ans"'],
    ['Vous avez 35 ans maximum.', '"35 ans maximum"'],
    ["Limite d'âge : 40 ans.", `"Limite d'âge"`],
    ['Âge maximum 45 ans', '"Âge maximum"'],
    ['Vous êtes âgée de 20 à 28 ans.', '"âgée de 20 à 28 ans"'],
    ['Profil : entre 25 et 35 ans, motivé.', '"entre 25 et 35 ans"'],
    ['CANDIDATS DE MOINS DE 26 ANS', '"MOINS DE 26 ANS"'],
    ['Applicants must be under the age of 30.', '"under the age of 30"'],
    ['You are under 35 years old.', '"under 35 years old"'],
    ['Candidates aged 20-30 preferred.', '"aged 20-30"'],
    ['Maximum age: 40.', '"Maximum age"'],
    ['No older than 45.', '"No older than 45"'],
    ['Over 50s need not apply.', '"Over 50s need not apply"'],
  ];
  for (const [words, quoted] of limits) {
    it(`finds ${quoted} in "${words}", quoting the text's own words`, () => {
      assert.deepEqual(upperAgeLimit(words), [quoted]);
    });
  }

  const notLimits = [
    'Stage de 6 mois : ménage, entretien et accueil.',
    "Moins de 5 ans d'expérience, ou jusqu'à 25 ans d'expérience en banque.",
    "Entre 20 et 30 ans d'expérience dans le bâtiment.",
    "Pas de limite d'âge : tous les profils sont bienvenus.",
    "Poste ouvert sans limite d'âge.",
    'There is no age limit for this role.',
    'Vous accompagnez des jeunes de moins de 26 ans vers l’emploi (mission locale).',
    'Animateur : enfants âgés de 16 à 18 ans en séjour.',
    'You will mentor young people aged 16-25.',
    "Une entreprise de plus de 30 ans d'existence.",
    'Âgé de 18 ans minimum (permis poids lourd).',
  ];
  findsNoneIn(notLimits, upperAgeLimit);
});

describe('a forbidden criterion', () => {
  const stated: [string, Criterion][] = [
    ['Rejoignez une équipe jeune et dynamique.', 'age'],
    ['We want young and dynamic people.', 'age'],
    ['Poste réservé aux hommes.', 'sex'],
    ['Femmes uniquement.', 'sex'],
    ['Nous recherchons une femme pour tenir la boutique.', 'sex'],
    ['Female candidates only.', 'sex'],
    ['Candidat de sexe masculin.', 'sex'],
    ["Candidats d'origine européenne.", 'origin'],
    ['Vous êtes de langue maternelle anglaise.', 'origin'],
    ['Native English speaker required.', 'origin'],
    ['Célibataire, disponible pour voyager.', 'family situation'],
    ["Sans enfants de préférence, pas d'enfants à charge.", 'family situation'],
    ['Applicants must be single.', 'family situation'],
    ['Pas de projet de grossesse à court terme.', 'pregnancy'],
    ['Candidate non enceinte.', 'pregnancy'],
    ['Vous êtes en parfaite santé.', 'health'],
    ['Applicants in good health only.', 'health'],
    ['Pas de personnes handicapées.', 'disability'],
    ['Able-bodied candidates only.', 'disability'],
    ['Catholique de préférence.', 'religion'],
    ['Pas de voile au travail.', 'religion'],
    ['Aucun engagement politique.', 'political opinions'],
    ['Candidat non syndiqué.', 'union activity'],
    ["Pas d'activité syndicale.", 'union activity'],
    ['No union members.', 'union activity'],
    ['Hétérosexuel de préférence.', 'sexual orientation'],
    ['Physique agréable exigé.', 'physical appearance'],
    ['Belle présentation, taille minimum 1m70.', 'physical appearance'],
    ['Good-looking candidates wanted.', 'physical appearance'],
    ['Nom à consonance française.', 'surname'],
    ['Vous devez habiter à Lyon intra-muros.', 'place of residence'],
    ['Local candidates only.', 'place of residence'],
  ];
  for (const [words, criterion] of stated) {
    it(`finds ${criterion} in "${words}"`, () => {
      assert.deepEqual(criteriaOf(words), [criterion]);
    });
  }

  it('quotes the words as the text has them, accents and case kept, and each ground once', () => {
    const found = forbiddenCriteria(textOf('RÉSERVÉ AUX HOMMES. Poste réservé aux hommes, célibataire.'));
    assert.deepEqual(found, [
      { criterion: 'sex', quotes: ['"RÉSERVÉ AUX HOMMES"', '"réservé aux hommes"'] },
      { criterion: 'family situation', quotes: ['"célibataire"'] },
    ]);
  });

  it('knows every ground of the list', () => {
    assert.deepEqual(new Set(stated.map(([, criterion]) => criterion)), new Set(CRITERIA));
  });

  const allowed = [
    'Stage en ménage et entretien : votre âge importe peu.',
    'Stage maximum de 6 mois ; affichage limité en vitrine ; ménage maximal le lundi.',
    'Vente de prêt-à-porter unisexe féminin et masculin.',
    'Rejoignez une jeune pousse lyonnaise, une jeune entreprise innovante.',
    'Jeune diplômé(e) bienvenu(e).',
    'A family business since 1950: we value our people.',
    'Télétravail partiel. Poste ouvert aux personnes en situation de handicap.',
    'We welcome applications from people with disabilities.',
    'We are an equal opportunity employer: we hire without regard to race, religion, sex, sexual orientation, age, disability, national origin or union membership.',
    "Nous recrutons sans distinction d'âge, de sexe, d'origine, de religion, de handicap ou d'orientation sexuelle.",
    'Logement célibataire fourni pour la saison.',
    "L'entreprise est en bonne santé financière.",
    'Mutuelle santé prise en charge à 100 %, full health insurance.',
    "Vous accompagnez les résidents dans les actes de la vie quotidienne, dans l'enceinte de l'établissement.",
    'Vente d’enceintes audio et de robes de mariée.',
    'Anglais courant exigé ; allemand apprécié.',
    'Attractive salary and benefits.',
    'Vous êtes titulaire du permis B valide.',
    'Projet financé par l’Union européenne ; European Union funding.',
    'Nous recherchons une femme de ménage (H/F).',
    'Nous recherchons un homme ou une femme pour ce poste.',
    'Vendeur / vendeuse (H/F), horaires du soir.',
    'Aide à domicile auprès de personnes âgées : vous êtes en lien avec les familles.',
    'Vous présentez nos produits d’origine française.',
  ];
  findsNoneIn(allowed, criteriaOf, upperAgeLimit);
});
