// The demo world's offers (seed.ts): their titles in French and English,
// contracts, salaries, cities and skills, and the HTML of their texts.

/** Where the seeded offers' cities are (their centres, in degrees), so that searches near a place find them. */
export const CITY_POSITIONS: Record<string, { latitude: number; longitude: number }> = {
  Paris: { latitude: 48.8566, longitude: 2.3522 },
  Lyon: { latitude: 45.764, longitude: 4.8357 },
  Nantes: { latitude: 47.2184, longitude: -1.5536 },
  Bordeaux: { latitude: 44.8378, longitude: -0.5792 },
  Lille: { latitude: 50.6292, longitude: 3.0573 },
  Toulouse: { latitude: 43.6047, longitude: 1.4442 },
  Marseille: { latitude: 43.2965, longitude: 5.3698 },
  Rennes: { latitude: 48.1173, longitude: -1.6778 },
  Strasbourg: { latitude: 48.5734, longitude: 7.7521 },
  Grenoble: { latitude: 45.1885, longitude: 5.7245 },
};

export interface Offer {
  fr: string;
  en: string;
  job_type: string;
  working_time: string;
  salary: [number, number] | null;
  city: string;
  country: string;
  postal_code: string;
  locale: 'fr' | 'en';
  skills: string[];
}

// One line an offer, its fields apart by " | ": French title | English title |
// job type | working time | yearly salary (min-max, or none) | city | postal
// code | language | skills. Every offer is in France.
const TABLE = `
Développeur·se full-stack TypeScript | Full-stack TypeScript developer | Permanent contract | Full time | 45000-58000 | Paris | 75011 | fr | TypeScript, Node.js, React, SQL
Chargé·e de recrutement | Recruitment officer | Fixed term contract | Full time | 32000-38000 | Lyon | 69002 | fr | Recruiting, Communication, Negotiation
Data analyst | Data analyst | Permanent contract | Full time | 40000-50000 | Nantes | 44000 | en | SQL, Python, Data analysis, Excel
Stage – assistant·e marketing digital | Internship – digital marketing assistant | Internship | Full time | 1200-1400 | Bordeaux | 33000 | fr | Marketing, SEO, Communication
Comptable fournisseurs | Accounts payable accountant | Interim Contract | Part time - Morning | 28000-31000 | Lille | 59000 | fr | Accounting, Excel, Finance
Ingénieur·e DevOps | DevOps engineer | Freelance | Custom | none | Toulouse | 31000 | en | Docker, Kubernetes, AWS, Linux
Commercial·e terrain B2B | B2B field sales representative | Permanent contract | Full time | 35000-45000 | Marseille | 13002 | fr | Sales, Negotiation
Alternance – développeur·se web | Work-study – web developer | Alternating | Full time | 900-1300 | Rennes | 35000 | fr | HTML, CSS, JavaScript, Git
Product designer UX/UI | UX/UI product designer | Permanent contract | Full time | 42000-52000 | Paris | 75009 | en | UX, Figma
Conseiller·ère clientèle bilingue | Bilingual customer advisor | Fixed term contract | Part time | 24000-27000 | Strasbourg | 67000 | fr | Customer service, English, German
Cheffe de projet agile | Agile project manager | Permanent contract | Full time | 50000-62000 | Grenoble | 38000 | en | Project management, Agile, Scrum, Leadership
Technicien·ne de maintenance | Maintenance technician | Professional Contract | Part time - Afternoon | 26000-30000 | Lyon | 69007 | fr | Teamwork
`;

function offerOf(row: string): Offer {
  const fields = row.split(' | ');
  const [fr, en, job_type, working_time, salary, city, postal_code, locale, skills] = fields;
  if (fields.length !== 9 || skills === undefined || (locale !== 'fr' && locale !== 'en'))
    throw new Error(`not an offer of the demo table: ${row}`);
  return {
    fr: fr!,
    en: en!,
    job_type: job_type!,
    working_time: working_time!,
    salary: salary === 'none' ? null : (salary!.split('-').map(Number) as [number, number]),
    city: city!,
    country: 'France',
    postal_code: postal_code!,
    locale,
    skills: skills.split(', '),
  };
}

export const OFFERS: Offer[] = TABLE.trim().split('\n').map(offerOf);

export function describe(offer: Offer, company: string): string {
  if (offer.locale === 'fr') {
    return [
      `<h2>${offer.fr}</h2>`,
      `<p>Rejoignez <strong>${company}</strong> à ${offer.city} : une équipe de passionné·es qui construit des outils utilisés chaque jour par des milliers de personnes.</p>`,
      '<h3>Vos missions</h3>',
      `<ul><li>Prendre en charge des projets de bout en bout, de l'idée à la mise en production.</li><li>Travailler avec les équipes produit, commerciales et support.</li><li>Partager vos connaissances et faire grandir l'équipe.</li></ul>`,
      '<h3>Ce que nous offrons</h3>',
      `<p>Télétravail partiel, mutuelle prise en charge à 100 %, tickets restaurant et un budget formation annuel. Poste ouvert aux personnes en situation de handicap.</p>`,
    ].join('\n');
  }
  return [
    `<h2>${offer.en}</h2>`,
    `<p>Join <strong>${company}</strong> in ${offer.city}: a team of enthusiasts building tools that thousands of people rely on every day.</p>`,
    '<h3>What you will do</h3>',
    '<ul><li>Own projects end to end, from the first idea to production.</li><li>Work closely with product, sales and support.</li><li>Share what you know and help the team grow.</li></ul>',
    '<h3>What we offer</h3>',
    '<p>Hybrid work, full health insurance, meal vouchers and a yearly training budget. We welcome applications from people with disabilities.</p>',
  ].join('\n');
}

export function profileOf(offer: Offer): string {
  return offer.locale === 'fr'
    ? `<p>Vous maîtrisez : ${offer.skills.join(', ')}.</p><p>Curieux·se, rigoureux·se et à l'aise à l'oral comme à l'écrit.</p>`
    : `<p>You are fluent in: ${offer.skills.join(', ')}.</p><p>Curious, thorough and a clear communicator.</p>`;
}
