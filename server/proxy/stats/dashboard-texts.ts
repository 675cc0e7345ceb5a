// The dashboard's words, one table per language of the widget. The board's
// own people read them: a stage's name is the same in the charts, the tables
// and the sort links.
import type { Locale } from '../../contract/index.ts';
import type { FunnelStage } from '../../public-api/funnel.ts';
import type { OfferRule } from '../../public-api/offer-checks.ts';

export interface DashboardTexts {
  title: string;
  languages: string;
  period: { legend: string; from: string; to: string; show: string; showing: string; invalid: string };
  downloads: { label: string; csv: string; json: string };
  stages: Record<FunnelStage, string>;
  funnel: { heading: string; stage: string; count: string; ofPrevious: string; ofStage: string; chart: string };
  days: { heading: string; day: string; chart: string; table: string };
  offers: { heading: string; offer: string; unknown: string; spontaneous: string; shown: string; sortBy: string };
  sources: { heading: string; channel: string; utmSource: string; utmCampaign: string; none: string };
  outcomes: { heading: string; status: string; count: string; none: string };
  checks: {
    heading: string;
    offer: string;
    problems: string;
    none: string;
    shown: string;
    source: string;
    rules: Record<OfferRule, string>;
  };
  /** The name of a table's scrolling box. */
  table: string;
  empty: string;
}

/** `{name}` in a text, replaced by its value. */
export function fill(text: string, values: Record<string, string | number>): string {
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole));
}

export const DASHBOARD_TEXTS: Record<Locale, DashboardTexts> = {
  en: {
    title: "Your board's funnel",
    languages: 'Language',
    period: {
      legend: 'Period',
      from: 'From',
      to: 'To',
      show: 'Show',
      showing: 'From {from} to {to} (UTC days).',
      invalid:
        'That period cannot be shown: its first day must not come after its last, and it spans at most {max} days. Here are the last {days} days.',
    },
    downloads: { label: 'Download the offers:', csv: 'CSV', json: 'JSON' },
    stages: {
      listed: 'Listed',
      opened: 'Opened',
      started: 'Started',
      submitted: 'Submitted',
      received: 'Received',
      delivered: 'Delivered',
      rejected: 'Refused',
      dead: 'Not delivered',
    },
    funnel: {
      heading: 'Funnel',
      stage: 'Stage',
      count: 'Count',
      ofPrevious: 'Of the stage before',
      ofStage: 'Of {stage}',
      chart: 'Funnel from {from} to {to}: {summary}.',
    },
    days: {
      heading: 'Day by day',
      day: 'Day',
      chart: 'Counts per day from {from} to {to}, one line per stage; the table below gives every day.',
      table: 'Every day in a table',
    },
    offers: {
      heading: 'Offers',
      offer: 'Offer',
      unknown: 'Offer {id} (no longer in the catalogue)',
      spontaneous: 'Spontaneous applications (to a company, no offer)',
      shown: '{shown} of {total} offers counted in the period, most {stage} first.',
      sortBy: 'Sort by {stage}',
    },
    sources: {
      heading: 'Sources',
      channel: 'Channel',
      utmSource: 'Campaign source',
      utmCampaign: 'Campaign',
      none: 'none',
    },
    outcomes: {
      heading: "Companies' outcomes",
      status: "Company's status",
      count: 'Applications',
      none: 'No company has given an outcome yet for this period.',
    },
    checks: {
      heading: 'Offer checks',
      offer: 'Offer',
      problems: 'What to fix',
      none: 'No problem found in the offers listed now.',
      shown:
        '{total} of the offers listed now have something to fix ({shown} shown here; the command jobboard-connector offers check lists them all). The details are in English.',
      source: 'Source',
      rules: {
        pay_range_missing: 'No pay range',
        date_missing: 'No publication date',
        not_in_french: 'Not in French',
        not_in_board_language: "Not in the board's language",
        upper_age_limit: 'Upper age limit',
        forbidden_criterion: 'Forbidden criterion',
        jobposting_required_missing: 'Google: a required field is missing',
        jobposting_recommended_missing: 'Google: a recommended field is missing',
        closed_still_listed: 'Closed, still listed',
      },
    },
    table: 'Table: {name}',
    empty: 'Nothing was counted in this period.',
  },
  fr: {
    title: "L'entonnoir de votre site d'emploi",
    languages: 'Langue',
    period: {
      legend: 'Période',
      from: 'Du',
      to: 'Au',
      show: 'Afficher',
      showing: 'Du {from} au {to} (jours UTC).',
      invalid:
        'Cette période ne peut pas être affichée : son premier jour ne doit pas suivre le dernier, et elle compte au plus {max} jours. Voici les {days} derniers jours.',
    },
    downloads: { label: 'Télécharger les offres :', csv: 'CSV', json: 'JSON' },
    stages: {
      listed: 'Affichées',
      opened: 'Ouvertes',
      started: 'Commencées',
      submitted: 'Envoyées',
      received: 'Reçues',
      delivered: 'Transmises',
      rejected: 'Refusées',
      dead: 'Non transmises',
    },
    funnel: {
      heading: 'Entonnoir',
      stage: 'Étape',
      count: 'Nombre',
      ofPrevious: "De l'étape précédente",
      ofStage: 'Des {stage}',
      chart: 'Entonnoir du {from} au {to} : {summary}.',
    },
    days: {
      heading: 'Jour par jour',
      day: 'Jour',
      chart: 'Nombres par jour du {from} au {to}, une ligne par étape ; le tableau ci-dessous donne chaque jour.',
      table: 'Chaque jour dans un tableau',
    },
    offers: {
      heading: 'Offres',
      offer: 'Offre',
      unknown: 'Offre {id} (plus dans le catalogue)',
      spontaneous: 'Candidatures spontanées (à une entreprise, sans offre)',
      shown: '{shown} offres sur {total} comptées sur la période, les plus {stage} en premier.',
      sortBy: 'Trier par {stage}',
    },
    sources: {
      heading: 'Sources',
      channel: 'Canal',
      utmSource: 'Source de campagne',
      utmCampaign: 'Campagne',
      none: 'aucune',
    },
    outcomes: {
      heading: 'Suites données par les entreprises',
      status: "Statut de l'entreprise",
      count: 'Candidatures',
      none: "Aucune entreprise n'a encore donné de suite sur cette période.",
    },
    checks: {
      heading: 'Vérification des offres',
      offer: 'Offre',
      problems: 'À corriger',
      none: 'Aucun problème dans les offres affichées en ce moment.',
      shown:
        '{total} des offres affichées en ce moment ont quelque chose à corriger ({shown} ici ; la commande jobboard-connector offers check les liste toutes). Le détail est en anglais.',
      source: 'Source',
      rules: {
        pay_range_missing: 'Pas de fourchette de salaire',
        date_missing: 'Pas de date de publication',
        not_in_french: 'Pas en français',
        not_in_board_language: 'Pas dans la langue du site',
        upper_age_limit: "Limite d'âge",
        forbidden_criterion: 'Critère interdit',
        jobposting_required_missing: 'Google : un champ requis manque',
        jobposting_recommended_missing: 'Google : un champ recommandé manque',
        closed_still_listed: 'Terminée, toujours affichée',
      },
    },
    table: 'Tableau : {name}',
    empty: "Rien n'a été compté sur cette période.",
  },
  es: {
    title: 'El embudo de su bolsa de empleo',
    languages: 'Idioma',
    period: {
      legend: 'Periodo',
      from: 'Desde',
      to: 'Hasta',
      show: 'Mostrar',
      showing: 'Del {from} al {to} (días UTC).',
      invalid:
        'Ese periodo no se puede mostrar: su primer día no debe ir después del último, y abarca como mucho {max} días. Aquí están los últimos {days} días.',
    },
    downloads: { label: 'Descargar las ofertas:', csv: 'CSV', json: 'JSON' },
    stages: {
      listed: 'Mostradas',
      opened: 'Abiertas',
      started: 'Empezadas',
      submitted: 'Enviadas',
      received: 'Recibidas',
      delivered: 'Entregadas',
      rejected: 'Rechazadas',
      dead: 'No entregadas',
    },
    funnel: {
      heading: 'Embudo',
      stage: 'Etapa',
      count: 'Número',
      ofPrevious: 'De la etapa anterior',
      ofStage: 'De las {stage}',
      chart: 'Embudo del {from} al {to}: {summary}.',
    },
    days: {
      heading: 'Día a día',
      day: 'Día',
      chart: 'Números por día del {from} al {to}, una línea por etapa; la tabla de abajo da cada día.',
      table: 'Cada día en una tabla',
    },
    offers: {
      heading: 'Ofertas',
      offer: 'Oferta',
      unknown: 'Oferta {id} (ya no está en el catálogo)',
      spontaneous: 'Candidaturas espontáneas (a una empresa, sin oferta)',
      shown: '{shown} de {total} ofertas contadas en el periodo, las más {stage} primero.',
      sortBy: 'Ordenar por {stage}',
    },
    sources: {
      heading: 'Fuentes',
      channel: 'Canal',
      utmSource: 'Fuente de campaña',
      utmCampaign: 'Campaña',
      none: 'ninguna',
    },
    outcomes: {
      heading: 'Resultados de las empresas',
      status: 'Estado de la empresa',
      count: 'Candidaturas',
      none: 'Ninguna empresa ha dado aún un resultado para este periodo.',
    },
    checks: {
      heading: 'Revisión de las ofertas',
      offer: 'Oferta',
      problems: 'Qué corregir',
      none: 'Ningún problema en las ofertas publicadas ahora.',
      shown:
        '{total} de las ofertas publicadas ahora tienen algo que corregir ({shown} aquí; el comando jobboard-connector offers check las lista todas). El detalle está en inglés.',
      source: 'Fuente',
      rules: {
        pay_range_missing: 'Sin banda salarial',
        date_missing: 'Sin fecha de publicación',
        not_in_french: 'No está en francés',
        not_in_board_language: 'No está en el idioma del portal',
        upper_age_limit: 'Límite de edad',
        forbidden_criterion: 'Criterio prohibido',
        jobposting_required_missing: 'Google: falta un campo obligatorio',
        jobposting_recommended_missing: 'Google: falta un campo recomendado',
        closed_still_listed: 'Cerrada, aún publicada',
      },
    },
    table: 'Tabla: {name}',
    empty: 'No se contó nada en este periodo.',
  },
};
