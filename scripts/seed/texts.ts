/**
 * Text pools for the demo data: names, skills, project ideas, jobs, events, chat lines.
 * Written for the product (German market, German and English); no placeholder text.
 */

export const FIRST_NAMES_F = [
  'Anna', 'Lena', 'Lea', 'Laura', 'Julia', 'Sarah', 'Katharina', 'Sophie', 'Marie', 'Hannah', 'Lisa',
  'Johanna', 'Clara', 'Paula', 'Emilia', 'Mia', 'Charlotte', 'Franziska', 'Miriam', 'Nina', 'Jana',
  'Svenja', 'Theresa', 'Carolin', 'Melanie', 'Sabine', 'Petra', 'Ayşe', 'Elif', 'Zeynep', 'Natalia',
  'Olga', 'Ewa', 'Giulia', 'Sofia', 'Amira', 'Leonie', 'Greta', 'Ida', 'Jule', 'Verena', 'Annika',
] as const;

export const FIRST_NAMES_M = [
  'Lukas', 'Jonas', 'Felix', 'Maximilian', 'Leon', 'Paul', 'Elias', 'Tim', 'Jan', 'Niklas', 'Moritz',
  'David', 'Philipp', 'Tobias', 'Sebastian', 'Florian', 'Alexander', 'Christian', 'Stefan', 'Markus',
  'Thomas', 'Andreas', 'Matthias', 'Benedikt', 'Johannes', 'Jakob', 'Emil', 'Anton', 'Mehmet', 'Emre',
  'Can', 'Piotr', 'Marco', 'Luca', 'Omar', 'Yusuf', 'Konstantin', 'Henrik', 'Malte', 'Ole', 'Till',
] as const;

export const LAST_NAMES = [
  'Müller', 'Schmidt', 'Schneider', 'Fischer', 'Weber', 'Meyer', 'Wagner', 'Becker', 'Schulz', 'Hoffmann',
  'Schäfer', 'Koch', 'Bauer', 'Richter', 'Klein', 'Wolf', 'Schröder', 'Neumann', 'Schwarz', 'Zimmermann',
  'Braun', 'Krüger', 'Hofmann', 'Hartmann', 'Lange', 'Schmitt', 'Werner', 'Schmitz', 'Krause', 'Meier',
  'Lehmann', 'Schmid', 'Schulze', 'Maier', 'Köhler', 'Herrmann', 'König', 'Walter', 'Mayer', 'Huber',
  'Kaiser', 'Fuchs', 'Peters', 'Lang', 'Scholz', 'Möller', 'Weiß', 'Jung', 'Hahn', 'Vogel', 'Friedrich',
  'Günther', 'Keller', 'Berger', 'Frank', 'Roth', 'Beck', 'Lorenz', 'Baumann', 'Franke', 'Albrecht',
  'Yılmaz', 'Kaya', 'Demir', 'Nowak', 'Kowalski', 'Rossi', 'Haddad', 'Nguyen', 'Popescu', 'Ivanova',
] as const;

/** A German job title in its feminine and masculine form ("Sozialarbeiterin", "Sozialarbeiter"); the same word where it is neutral. */
export interface GermanTitle {
  f: string;
  m: string;
}

/**
 * Professions: [German title by gender, English, skills]. The German form follows the person's
 * first name (issue 33 §16: "Markus Hoffmann – Sozialarbeiterin" read wrong).
 */
export const PROFESSIONS: readonly (readonly [GermanTitle, string, readonly string[]])[] = [
  [{ f: 'Softwareentwicklerin', m: 'Softwareentwickler' }, 'Software developer', ['TypeScript', 'React', 'Node.js', 'PostgreSQL', 'Docker']],
  [{ f: 'Backend-Entwicklerin', m: 'Backend-Entwickler' }, 'Backend developer', ['Go', 'Python', 'Kubernetes', 'PostgreSQL', 'REST-APIs']],
  [{ f: 'UX-Designerin', m: 'UX-Designer' }, 'UX designer', ['Figma', 'User Research', 'Prototyping', 'Design Systems', 'Barrierefreiheit']],
  [{ f: 'Produktmanagerin', m: 'Produktmanager' }, 'Product manager', ['Roadmapping', 'Scrum', 'Nutzerinterviews', 'OKRs', 'Jira']],
  [{ f: 'Data Scientist', m: 'Data Scientist' }, 'Data scientist', ['Python', 'Machine Learning', 'SQL', 'Statistik', 'pandas']],
  [{ f: 'Marketing-Managerin', m: 'Marketing-Manager' }, 'Marketing manager', ['SEO', 'Content Marketing', 'Social Media', 'Google Ads', 'Texten']],
  [{ f: 'Vertriebsprofi', m: 'Vertriebsprofi' }, 'Sales professional', ['B2B-Vertrieb', 'CRM', 'Verhandlung', 'Key Account Management']],
  [{ f: 'Steuerberaterin', m: 'Steuerberater' }, 'Tax advisor', ['Steuerrecht', 'Buchhaltung', 'DATEV', 'Gründungsberatung']],
  [{ f: 'Maschinenbauingenieurin', m: 'Maschinenbauingenieur' }, 'Mechanical engineer', ['CAD', 'SolidWorks', 'Prototypenbau', 'Fertigung']],
  [{ f: 'Grafikdesignerin', m: 'Grafikdesigner' }, 'Graphic designer', ['Illustrator', 'Branding', 'Typografie', 'InDesign', 'Illustration']],
  [{ f: 'Fotografin', m: 'Fotograf' }, 'Photographer', ['Porträtfotografie', 'Lightroom', 'Bildbearbeitung', 'Videoschnitt']],
  [{ f: 'Lehrerin', m: 'Lehrer' }, 'Teacher', ['Didaktik', 'Mediendidaktik', 'Workshops', 'Moderation']],
  [{ f: 'Pflegefachkraft', m: 'Pflegefachkraft' }, 'Nurse', ['Pflege', 'Gesundheitsmanagement', 'Patientenkommunikation']],
  [{ f: 'Ärztin', m: 'Arzt' }, 'Physician', ['Allgemeinmedizin', 'Telemedizin', 'Prävention']],
  [{ f: 'Umweltwissenschaftlerin', m: 'Umweltwissenschaftler' }, 'Environmental scientist', ['Ökobilanzen', 'GIS', 'Nachhaltigkeitsberichte', 'CO2-Bilanzierung']],
  [{ f: 'Sozialarbeiterin', m: 'Sozialarbeiter' }, 'Social worker', ['Projektarbeit', 'Beratung', 'Fördermittel', 'Jugendarbeit']],
  [{ f: 'Architektin', m: 'Architekt' }, 'Architect', ['Entwurf', 'BIM', 'Nachhaltiges Bauen', 'Revit']],
  [{ f: 'Juristin', m: 'Jurist' }, 'Lawyer', ['Vertragsrecht', 'Datenschutz', 'DSGVO', 'Gesellschaftsrecht']],
  [{ f: 'Studentin der Informatik', m: 'Student der Informatik' }, 'Computer science student', ['Java', 'Python', 'Algorithmen', 'Linux']],
  [{ f: 'Studentin der BWL', m: 'Student der BWL' }, 'Business student', ['Excel', 'Businessplan', 'Marktanalyse', 'Finanzierung']],
  [{ f: 'Köchin', m: 'Koch' }, 'Chef', ['Gastronomie', 'Kalkulation', 'Regionale Küche', 'Eventcatering']],
  [{ f: 'Physiotherapeutin', m: 'Physiotherapeut' }, 'Physiotherapist', ['Sporttherapie', 'Rehabilitation', 'Gesundheitskurse']],
  [{ f: 'Musikerin', m: 'Musiker' }, 'Musician', ['Komposition', 'Tontechnik', 'Ableton', 'Live-Performance']],
  [{ f: 'Gründerin', m: 'Gründer' }, 'Founder', ['Fundraising', 'Pitching', 'Teamaufbau', 'Geschäftsmodelle']],
  [{ f: 'Business Angel', m: 'Business Angel' }, 'Business angel', ['Investment', 'Mentoring', 'Due Diligence', 'Netzwerk']],
  [{ f: 'Elektrotechnikerin', m: 'Elektrotechniker' }, 'Electrical engineer', ['Embedded Systems', 'IoT', 'Löten', 'C']],
  [{ f: 'Projektmanagerin', m: 'Projektmanager' }, 'Project manager', ['PRINCE2', 'Stakeholder-Management', 'Kanban', 'Budgetplanung']],
  [{ f: 'Übersetzerin', m: 'Übersetzer' }, 'Translator', ['Deutsch', 'Englisch', 'Französisch', 'Lokalisierung']],
];

export const LOOKING_FOR_DE = [
  'Eine Mitgründerin oder einen Mitgründer mit technischem Hintergrund.',
  'Menschen, die Lust haben, an einer Idee für unsere Stadt mitzuarbeiten.',
  'Eine Mentorin oder einen Mentor für die ersten Schritte in die Selbstständigkeit.',
  'Investoren für die Seed-Phase (100–300 Tsd. €).',
  'Ein kleines Team für ein Wochenendprojekt – gern auch fachfremd.',
  'Kontakte zu Unternehmen, die Praxispartner für ein Pilotprojekt werden möchten.',
  'Freelance-Projekte im Bereich Design und Kommunikation.',
  'Mitstreiter für ein ehrenamtliches Projekt in meinem Viertel.',
];
export const LOOKING_FOR_EN = [
  'A technical co-founder to build the first version with me.',
  'People who want to work on an idea for our city.',
  'A mentor for my first steps as a freelancer.',
  'Investors for our seed round (EUR 100–300k).',
  'A small team for a weekend project – no prior experience needed.',
  'Companies that would like to become pilot partners.',
  'Freelance projects in design and communication.',
  'Fellow volunteers for a neighbourhood project.',
];
export const OFFERING_DE = [
  'Zehn Jahre Erfahrung in der Produktentwicklung und ein gutes Netzwerk in der Region.',
  'Zeit an zwei Abenden pro Woche und viel Begeisterung.',
  'Unterstützung bei Businessplan, Finanzierung und Fördermitteln.',
  'Design von der Skizze bis zum fertigen Markenauftritt.',
  'Programmierung von Web- und Mobile-Apps.',
  'Räume für Workshops und Treffen in der Innenstadt.',
  'Feedback zu Pitch Decks und Kontakte zu Business Angels.',
  'Erfahrung in der Vereinsarbeit und im Organisieren von Veranstaltungen.',
];
export const OFFERING_EN = [
  'Ten years of product development and a strong regional network.',
  'Two evenings a week and lots of enthusiasm.',
  'Help with business plans, financing and public funding.',
  'Design from first sketch to a complete brand identity.',
  'Development of web and mobile apps.',
  'Rooms for workshops and meetings in the city centre.',
  'Feedback on pitch decks and introductions to business angels.',
  'Experience in running associations and organising events.',
];

export const STREETS = [
  'Hauptstraße', 'Bahnhofstraße', 'Schillerstraße', 'Goethestraße', 'Gartenstraße', 'Lindenstraße',
  'Kirchstraße', 'Marktplatz', 'Friedrichstraße', 'Mozartstraße', 'Bergstraße', 'Parkstraße',
  'Wilhelmstraße', 'Ringstraße', 'Industriestraße', 'Am Hafen', 'Poststraße', 'Königstraße',
] as const;

export const COMPANY_PREFIX = [
  'Nordlicht', 'Rheinwerk', 'Elbkind', 'Isarblick', 'Spreeflug', 'Mainufer', 'Alpenglanz', 'Hanse',
  'Werkbank', 'Funkenflug', 'Lichtblick', 'Weitsicht', 'Kompass', 'Brückenschlag', 'Zukunftsraum',
  'Grünfeld', 'Bergwerk', 'Leuchtturm', 'Ankerplatz', 'Sonnendeck',
] as const;
export const COMPANY_SUFFIX = [
  'Software GmbH', 'Digital GmbH', 'Labs GmbH', 'Consulting GmbH', 'Energie GmbH', 'Medien GmbH & Co. KG',
  'Technologies AG', 'Gesundheit gGmbH', 'Logistik GmbH', 'Design Studio', 'Bildung gGmbH', 'Robotics GmbH',
] as const;

/**
 * The English indefinite article for a noun phrase by its sound: "an electrical engineer", "an
 * architect", "a UX designer", "a user researcher" (issue 33 §16: "I am a electrical engineer").
 * @param phrase an English noun phrase; @returns "a" or "an"
 */
export function indefiniteArticle(phrase: string): 'a' | 'an' {
  // a "u" that sounds like "you" (UX, user, university) takes "a"; other vowels take "an"
  return /^(?:[aeio]|u(?!x|s|ni))/i.test(phrase.trim()) ? 'an' : 'a';
}

/** Project ideas per category: [title_de, summary_de, title_en, summary_en]. */
export type Idea = readonly [string, string, string, string];

export const PROJECT_IDEAS: Record<string, readonly Idea[]> = {
  education: [
    ['Lernplattform für Berufsschulen', 'Wir bauen eine Plattform, auf der Auszubildende Prüfungsfragen üben und sich gegenseitig erklären.',
      'Learning platform for vocational schools', 'A platform where apprentices practise exam questions and explain topics to each other.'],
    ['Nachhilfe-Netzwerk von Studierenden', 'Studierende geben günstige Nachhilfe für Kinder aus Familien mit kleinem Einkommen.',
      'Student tutoring network', 'University students give affordable tutoring to children from low-income families.'],
    ['Coding-Club für Mädchen', 'Ein wöchentlicher Programmierkurs für Mädchen von 10 bis 14 Jahren – mit Robotern und Spielen.',
      'Coding club for girls', 'A weekly programming club for girls aged 10 to 14 – with robots and games.'],
    ['Sprachcafé für Neuankommende', 'Ehrenamtliche und Geflüchtete treffen sich, um Deutsch im Alltag zu üben.',
      'Language café for newcomers', 'Volunteers and refugees meet to practise everyday German.'],
    ['Digitale Lernkarten für die Pflegeausbildung', 'Karteikarten-App mit Fallbeispielen aus dem Stationsalltag.',
      'Digital flashcards for nursing training', 'Flashcard app with case studies from everyday ward work.'],
    ['Mentoring für Erstakademiker', 'Wir verbinden Studierende aus Nicht-Akademikerfamilien mit Mentorinnen aus dem Berufsleben.',
      'Mentoring for first-generation students', 'We connect first-generation students with mentors from working life.'],
  ],
  technology: [
    ['Open-Source-App für Nachbarschaftshilfe', 'Eine App, über die Nachbarn Einkäufe, Werkzeug und kleine Hilfen teilen.',
      'Open-source app for neighbourly help', 'An app where neighbours share errands, tools and small favours.'],
    ['KI-Assistent für Handwerksbetriebe', 'Angebote und Rechnungen per Sprache erstellen – direkt von der Baustelle.',
      'AI assistant for craft businesses', 'Create quotes and invoices by voice – right from the building site.'],
    ['Sensorik für smarte Stadtbäume', 'Bodenfeuchte-Sensoren melden, wann Stadtbäume gegossen werden müssen.',
      'Sensors for smart city trees', 'Soil moisture sensors report when city trees need watering.'],
    ['Barrierefreie Termin-App für Arztpraxen', 'Terminbuchung, die mit Screenreader und in Leichter Sprache funktioniert.',
      'Accessible booking app for medical practices', 'Appointment booking that works with screen readers and in plain language.'],
    ['Marktplatz für gebrauchte Laborgeräte', 'Hochschulen und Start-ups kaufen und verkaufen geprüfte Laborgeräte.',
      'Marketplace for used lab equipment', 'Universities and start-ups buy and sell inspected lab equipment.'],
    ['Datenschutzfreundliche Analytics für KMU', 'Webanalyse ohne Cookies, gehostet in Deutschland.',
      'Privacy-friendly analytics for SMEs', 'Web analytics without cookies, hosted in Germany.'],
    ['Digitaler Zwilling für Werkstätten', 'Maschinenauslastung kleiner Werkstätten in Echtzeit sehen.',
      'Digital twin for workshops', 'See machine utilisation of small workshops in real time.'],
  ],
  business: [
    ['Unverpackt-Laden mit Lieferdienst', 'Ein Unverpackt-Laden, der per Lastenrad in die Nachbarschaft liefert.',
      'Zero-waste shop with delivery', 'A zero-waste grocery that delivers by cargo bike.'],
    ['Coworking auf dem Land', 'Wir bauen eine alte Scheune zum Coworking-Space für Pendler um.',
      'Rural coworking space', 'We are converting an old barn into a coworking space for commuters.'],
    ['Regionale Kaffeerösterei', 'Fair gehandelter Kaffee, geröstet in der Region, für Büros und Cafés.',
      'Regional coffee roastery', 'Fair-trade coffee roasted locally for offices and cafés.'],
    ['Mitgründer für B2B-SaaS gesucht', 'Software für die Schichtplanung in der Gastronomie – erste zahlende Kunden vorhanden.',
      'Co-founder wanted for B2B SaaS', 'Shift planning software for restaurants – first paying customers on board.'],
    ['Nachfolge für Traditionsbetrieb', 'Eine Schreinerei mit 40 Jahren Geschichte sucht junge Gründer für die Nachfolge.',
      'Succession for a family business', 'A 40-year-old joinery is looking for young founders to take over.'],
    ['Reparatur-Abo für Fahrräder', 'Monatliches Abo: Wir warten und reparieren Fahrräder direkt beim Kunden.',
      'Bike repair subscription', 'Monthly subscription: we service and repair bikes at the customer\'s door.'],
  ],
  art: [
    ['Offenes Atelier im Leerstand', 'Künstlerinnen und Künstler beleben ein leerstehendes Ladenlokal mit Ausstellungen.',
      'Open studio in an empty shop', 'Artists bring an empty shop to life with exhibitions.'],
    ['Street-Art-Festival', 'Ein Wochenende lang gestalten Künstler Fassaden im Viertel – mit Führungen und Workshops.',
      'Street art festival', 'For one weekend artists paint façades in the neighbourhood – with tours and workshops.'],
    ['Podcast über Handwerkskunst', 'Wir porträtieren Menschen, die alte Handwerkstechniken am Leben erhalten.',
      'Podcast about craftsmanship', 'We portray people who keep traditional crafts alive.'],
    ['Kurzfilm über Stadtgeschichte', 'Ein Dokumentar-Kurzfilm mit Zeitzeugen aus dem Viertel.',
      'Short film on local history', 'A short documentary with eyewitnesses from the neighbourhood.'],
    ['Theaterprojekt mit Jugendlichen', 'Jugendliche schreiben und spielen ihr eigenes Stück.',
      'Youth theatre project', 'Teenagers write and perform their own play.'],
  ],
  community: [
    ['Repair-Café im Stadtteil', 'Einmal im Monat reparieren wir gemeinsam Toaster, Kleidung und Fahrräder.',
      'Neighbourhood repair café', 'Once a month we fix toasters, clothes and bikes together.'],
    ['Gemeinschaftsgarten auf dem Hinterhof', 'Aus einem grauen Hinterhof wird ein Garten für alle Hausbewohner.',
      'Community courtyard garden', 'Turning a grey backyard into a garden for all residents.'],
    ['Nachbarschaftsfest organisieren', 'Wir planen ein Straßenfest mit Flohmarkt, Musik und Essen aus aller Welt.',
      'Organising a street party', 'Planning a street party with flea market, music and food from around the world.'],
    ['Leihladen für Alltagsgegenstände', 'Bohrmaschine, Zelt oder Raclette-Grill: ausleihen statt kaufen.',
      'Library of things', 'Drill, tent or raclette grill: borrow instead of buying.'],
    ['Digitale Sprechstunde für Senioren', 'Junge Freiwillige helfen älteren Menschen bei Smartphone und Online-Banking.',
      'Digital help desk for seniors', 'Young volunteers help older people with smartphones and online banking.'],
  ],
  environment: [
    ['Balkonkraftwerke für Mietwohnungen', 'Sammelbestellung und Montagehilfe für Steckersolargeräte.',
      'Plug-in solar for rented flats', 'Group purchase and installation help for balcony solar panels.'],
    ['CO2-Rechner für Vereine', 'Ein einfacher Rechner, mit dem Sportvereine ihre Emissionen erfassen.',
      'Carbon calculator for clubs', 'A simple calculator for sports clubs to track their emissions.'],
    ['Lastenrad-Verleih im Quartier', 'Kostenlose Lastenräder, buchbar per App, betreut von Nachbarn.',
      'Cargo bike sharing in the quarter', 'Free cargo bikes, bookable by app, looked after by neighbours.'],
    ['Müllsammelaktionen an der Küste', 'Regelmäßige Clean-ups mit Auswertung der gefundenen Abfälle.',
      'Beach clean-ups', 'Regular clean-ups with an analysis of the litter we find.'],
    ['Regenwassernutzung für Kleingärten', 'Zisternen und Tropfbewässerung für trockene Sommer.',
      'Rainwater harvesting for allotments', 'Cisterns and drip irrigation for dry summers.'],
    ['Nachhaltigkeit im Büroalltag', 'Workshops und Checklisten, mit denen Teams ihren Büroalltag nachhaltiger gestalten.',
      'Sustainability at the office', 'Workshops and checklists that help teams make office life more sustainable.'],
  ],
  health: [
    ['Lauftreff für Einsteiger', 'Dreimal pro Woche gemeinsam laufen – vom ersten Kilometer bis zum 10-km-Lauf.',
      'Running group for beginners', 'Running together three times a week – from the first kilometre to a 10k race.'],
    ['App für pflegende Angehörige', 'Termine, Medikamente und Austausch für Menschen, die Angehörige pflegen.',
      'App for family caregivers', 'Appointments, medication and peer support for family caregivers.'],
    ['Mentale Gesundheit im Studium', 'Peer-Gruppen und Workshops gegen Prüfungsstress.',
      'Mental health at university', 'Peer groups and workshops against exam stress.'],
    ['Gesundes Schulfrühstück', 'Ein Frühstücksangebot mit regionalen Lebensmitteln für Grundschulen.',
      'Healthy school breakfast', 'A breakfast programme with regional food for primary schools.'],
    ['Telemedizin für Landarztpraxen', 'Videosprechstunden und digitale Rezepte für ländliche Regionen.',
      'Telemedicine for rural practices', 'Video consultations and e-prescriptions for rural areas.'],
  ],
  science: [
    ['Citizen-Science-Projekt zur Luftqualität', 'Bürgerinnen messen Feinstaub vor der eigenen Haustür.',
      'Citizen science on air quality', 'Citizens measure particulate matter outside their own front door.'],
    ['Wildbienen-Monitoring', 'Wir zählen Wildbienen in Stadtparks und teilen die Daten offen.',
      'Wild bee monitoring', 'We count wild bees in city parks and share the data openly.'],
    ['Wissenschaft verständlich erklärt', 'Ein YouTube-Kanal, auf dem Forschende ihre Arbeit in fünf Minuten erklären.',
      'Science explained simply', 'A YouTube channel where researchers explain their work in five minutes.'],
    ['Open-Data-Portal für Stadtklima', 'Temperaturdaten aus Messstationen, frei verfügbar und visualisiert.',
      'Open data portal for urban climate', 'Temperature data from weather stations, freely available and visualised.'],
    ['Schülerlabor für Biotechnologie', 'Ein mobiles Labor, das Schulen besucht und Experimente ermöglicht.',
      'School lab for biotechnology', 'A mobile lab that visits schools and enables experiments.'],
  ],
  social: [
    ['Patenschaften für Geflüchtete', 'Wir vermitteln Patinnen für Behördengänge, Wohnungssuche und Alltag.',
      'Mentorships for refugees', 'We match mentors for paperwork, flat hunting and everyday life.'],
    ['Mittagstisch gegen Einsamkeit', 'Ein wöchentlicher Mittagstisch für ältere Menschen im Viertel.',
      'Lunch club against loneliness', 'A weekly lunch table for older people in the neighbourhood.'],
    ['Jobcoaching für Alleinerziehende', 'Bewerbungstraining mit Kinderbetreuung während der Termine.',
      'Job coaching for single parents', 'Application training with childcare during the sessions.'],
    ['Inklusives Sportangebot', 'Basketball für Menschen mit und ohne Behinderung.',
      'Inclusive sports programme', 'Basketball for people with and without disabilities.'],
    ['Foodsharing-Fairteiler', 'Ein öffentlicher Kühlschrank, in dem Lebensmittel geteilt statt weggeworfen werden.',
      'Food sharing fridge', 'A public fridge where food is shared instead of thrown away.'],
  ],
  other: [
    ['Plattform für Vereinsvorstände', 'Mitgliederverwaltung, Beiträge und Protokolle an einem Ort.',
      'Platform for club boards', 'Members, fees and minutes in one place.'],
    ['Reiseführer für barrierefreie Ausflüge', 'Geprüfte Ausflugsziele für Menschen mit Rollstuhl oder Kinderwagen.',
      'Guide to accessible day trips', 'Tested destinations for wheelchair users and families with prams.'],
    ['Brettspiel-Café', 'Ein Café mit über 300 Brettspielen und regelmäßigen Spieleabenden.',
      'Board game café', 'A café with over 300 board games and regular game nights.'],
    ['Stadtführungen von Einheimischen', 'Ungewöhnliche Touren, geführt von Menschen, die hier aufgewachsen sind.',
      'City tours by locals', 'Unusual tours led by people who grew up here.'],
  ],
};

export const PRIVATE_IDEAS: Record<string, readonly Idea[]> = {
  socializing: [
    ['Stammtisch für Zugezogene', 'Neu in der Stadt? Einmal im Monat treffen wir uns in wechselnden Kneipen.',
      'Meetup for newcomers', 'New in town? We meet once a month in a different pub.'],
    ['Spieleabend unter Nachbarn', 'Doppelkopf, Catan und Co. – jeden zweiten Freitag.',
      'Neighbourhood game night', 'Card games, Catan and more – every other Friday.'],
  ],
  movement: [
    ['Frühsport im Park', 'Dreißig Minuten Bewegung vor der Arbeit – bei jedem Wetter.',
      'Morning workout in the park', 'Thirty minutes of exercise before work – whatever the weather.'],
    ['Radtouren am Wochenende', 'Gemütliche Touren von 40 bis 60 km mit Einkehr.',
      'Weekend bike rides', 'Relaxed rides of 40 to 60 km with a stop for lunch.'],
  ],
  creative: [
    ['Urban-Sketching-Gruppe', 'Wir zeichnen gemeinsam Orte in der Stadt – Anfänger willkommen.',
      'Urban sketching group', 'We draw places around town together – beginners welcome.'],
    ['Band sucht Bassistin', 'Indie-Pop-Band probt einmal pro Woche und sucht Verstärkung am Bass.',
      'Band looking for a bass player', 'Indie pop band rehearses weekly and needs a bassist.'],
  ],
  learning_exchange: [
    ['Tandem Spanisch–Deutsch', 'Ich biete Deutsch und suche jemanden, mit dem ich Spanisch sprechen kann.',
      'Spanish–German tandem', 'I offer German and look for someone to speak Spanish with.'],
    ['Programmieren lernen in der Gruppe', 'Wir arbeiten uns gemeinsam durch einen Python-Kurs.',
      'Learning to code together', 'We work through a Python course as a group.'],
  ],
  cooking_eating: [
    ['Kochabend mit Rezepten aus aller Welt', 'Jeden Monat kocht jemand ein Gericht aus seiner Heimat.',
      'Cooking night with world recipes', 'Every month someone cooks a dish from their home country.'],
    ['Einkochen und Fermentieren', 'Wir machen Sauerkraut, Kimchi und Marmelade aus Gartenüberschüssen.',
      'Preserving and fermenting', 'We make sauerkraut, kimchi and jam from garden surplus.'],
  ],
  family_children: [
    ['Spielgruppe für Kleinkinder', 'Eltern mit Kindern unter drei treffen sich vormittags im Familienzentrum.',
      'Toddler playgroup', 'Parents with children under three meet in the family centre.'],
    ['Kinderkleider-Tauschbörse', 'Zu klein gewordene Kleidung tauschen statt kaufen.',
      'Children\'s clothes swap', 'Swap outgrown clothes instead of buying new ones.'],
  ],
  volunteer: [
    ['Vorlesepaten für Kitas', 'Ehrenamtliche lesen einmal pro Woche in Kitas vor.',
      'Reading volunteers for nurseries', 'Volunteers read to children in nurseries once a week.'],
    ['Helfer für die Tafel', 'Die Tafel sucht Fahrerinnen und Sortierer für samstags.',
      'Helpers for the food bank', 'The food bank needs drivers and sorters on Saturdays.'],
  ],
  testing_idea: [
    ['Testnutzer für meine Budget-App gesucht', 'Ich suche zehn Leute, die vier Wochen lang ihre Ausgaben damit erfassen.',
      'Test users wanted for my budgeting app', 'Looking for ten people to track their spending with it for four weeks.'],
    ['Feedback zu meiner Geschäftsidee', 'Ein Abo für regionale Gemüsekisten – ist das was für euch?',
      'Feedback on my business idea', 'A subscription for regional veg boxes – would you use it?'],
  ],
  finding_partners: [
    ['Mitgründerin für Social Start-up gesucht', 'Ich habe eine Idee für faire Mode aus Reststoffen und suche eine Partnerin.',
      'Looking for a co-founder for a social start-up', 'I have an idea for fair fashion made from leftover fabric and need a partner.'],
    ['Partner für Foodtruck', 'Wer steigt mit ein? Konzept und Fahrzeug sind vorhanden.',
      'Partner for a food truck', 'Who is in? Concept and vehicle are ready.'],
  ],
  gaining_visibility: [
    ['Mein Keramik-Label bekannter machen', 'Ich suche Ideen und Kooperationen für Märkte und Pop-up-Stores.',
      'Growing my ceramics label', 'Looking for ideas and collaborations for markets and pop-up stores.'],
    ['Sichtbarkeit für unseren Verein', 'Unser Ruderverein braucht Hilfe bei Website und Social Media.',
      'Visibility for our club', 'Our rowing club needs help with website and social media.'],
  ],
};

export const ROLES_DE = [
  'Mitgründer/in', 'Softwareentwickler/in', 'UX-Designer/in', 'Marketing', 'Vertrieb', 'Finanzen',
  'Grafikdesign', 'Projektkoordination', 'Fotografie', 'Ehrenamtliche', 'Mentor/in', 'Investor/in',
  'Texter/in', 'Social Media', 'Rechtliche Beratung', 'Handwerk',
] as const;
export const ROLES_EN = [
  'Co-founder', 'Software developer', 'UX designer', 'Marketing', 'Sales', 'Finance', 'Graphic design',
  'Project coordination', 'Photography', 'Volunteers', 'Mentor', 'Investor', 'Copywriter', 'Social media',
  'Legal advice', 'Craftsmanship',
] as const;

export const PROJECT_BODY_DE = [
  'Die Idee ist aus einem ganz konkreten Problem entstanden, das viele von uns aus dem Alltag kennen.',
  'Wir haben in den letzten Monaten mit über 30 Betroffenen gesprochen und wissen jetzt ziemlich genau, was fehlt.',
  'Ein erster Prototyp steht, jetzt wollen wir ihn mit echten Nutzerinnen und Nutzern testen.',
  'Wir treffen uns einmal pro Woche, meistens abends, und arbeiten dazwischen remote.',
  'Für das nächste halbe Jahr haben wir einen klaren Plan – uns fehlen nur noch ein paar Hände und Köpfe.',
  'Eine Förderung der Stadt ist beantragt; die Zusage erwarten wir im Frühjahr.',
  'Wichtig ist uns ein respektvolles Miteinander und dass alle mitentscheiden können.',
  'Erfahrung ist willkommen, aber kein Muss – wichtiger ist, dass du Lust hast, Verantwortung zu übernehmen.',
  'Die ersten Partner aus der Region haben schon zugesagt, mitzumachen.',
  'Melde dich gern mit ein paar Sätzen zu dir – wir antworten innerhalb weniger Tage.',
] as const;
export const PROJECT_BODY_EN = [
  'The idea grew out of a very concrete problem that many of us know from everyday life.',
  'Over the last few months we talked to more than 30 people affected, so we know quite precisely what is missing.',
  'A first prototype is ready; now we want to test it with real users.',
  'We meet once a week, usually in the evening, and work remotely in between.',
  'We have a clear plan for the next six months – we just need a few more hands and heads.',
  'We have applied for city funding and expect a decision in spring.',
  'We care about treating each other with respect and deciding things together.',
  'Experience is welcome but not required – what matters is that you want to take on responsibility.',
  'The first local partners have already agreed to join.',
  'Drop us a few lines about yourself – we reply within a few days.',
] as const;

/** Job titles per category: [title_de, title_en]. */
export const JOB_TITLES: Record<string, readonly (readonly [string, string])[]> = {
  technology: [['Frontend-Entwickler (m/w/d) React', 'Frontend Developer (React)'], ['Backend-Entwicklerin (m/w/d) Python', 'Backend Developer (Python)'],
    ['DevOps Engineer (m/w/d)', 'DevOps Engineer'], ['Data Engineer (m/w/d)', 'Data Engineer'], ['IT-Administrator (m/w/d)', 'IT Administrator'],
    ['Werkstudent Softwareentwicklung (m/w/d)', 'Working Student Software Development'], ['Mobile Developer Flutter (m/w/d)', 'Mobile Developer (Flutter)']],
  business: [['Key Account Manager (m/w/d)', 'Key Account Manager'], ['Controller (m/w/d)', 'Financial Controller'],
    ['Gründungsberater (m/w/d)', 'Start-up Advisor'], ['Office Manager (m/w/d) in Teilzeit', 'Office Manager (part-time)'], ['Praktikum Business Development', 'Business Development Intern']],
  education: [['Dozentin für Deutsch als Fremdsprache (m/w/d)', 'Lecturer for German as a Foreign Language'], ['Pädagogische Fachkraft Ganztag (m/w/d)', 'Educator for All-day School'],
    ['E-Learning-Designer (m/w/d)', 'E-Learning Designer']],
  health: [['Pflegefachkraft (m/w/d) ambulanter Dienst', 'Registered Nurse (home care)'], ['Physiotherapeut (m/w/d)', 'Physiotherapist'],
    ['Medizinische Fachangestellte (m/w/d)', 'Medical Assistant']],
  environment: [['Projektmanager Energiewende (m/w/d)', 'Project Manager Energy Transition'], ['Nachhaltigkeitsmanagerin (m/w/d)', 'Sustainability Manager'],
    ['Techniker Photovoltaik (m/w/d)', 'Solar PV Technician']],
  art: [['Grafikdesigner (m/w/d)', 'Graphic Designer'], ['Mediengestalterin Bild und Ton (m/w/d)', 'Audio-Visual Media Designer'], ['Content Creator (m/w/d)', 'Content Creator']],
  community: [['Quartiersmanager (m/w/d)', 'Neighbourhood Manager'], ['Community Manager (m/w/d)', 'Community Manager']],
  science: [['Wissenschaftliche Mitarbeiterin (m/w/d)', 'Research Associate'], ['Laborant (m/w/d) Biotechnologie', 'Lab Technician (Biotech)']],
  social: [['Sozialarbeiter (m/w/d) Jugendhilfe', 'Social Worker (youth services)'], ['Koordinatorin Ehrenamt (m/w/d)', 'Volunteer Coordinator']],
  other: [['Kundenservice-Mitarbeiter (m/w/d)', 'Customer Service Agent'], ['Übersetzerin Englisch–Deutsch (m/w/d)', 'English–German Translator']],
};

export const JOB_TASKS_DE = [
  'Du arbeitest eng mit unserem Produktteam zusammen und bringst eigene Ideen ein.',
  'Du übernimmst Verantwortung für eigene Projekte – von der Planung bis zur Umsetzung.',
  'Du betreust unsere Kundinnen und Kunden und bist erste Ansprechperson.',
  'Du entwickelst unsere Prozesse weiter und sorgst für Qualität.',
  'Du dokumentierst Ergebnisse und präsentierst sie im Team.',
] as const;
export const JOB_OFFER_DE = [
  'Flexible Arbeitszeiten und die Möglichkeit, mobil zu arbeiten.',
  '30 Tage Urlaub, Jobrad und Zuschuss zum Deutschlandticket.',
  'Ein offenes Team mit flachen Hierarchien.',
  'Ein eigenes Weiterbildungsbudget von 1.500 € pro Jahr.',
  'Betriebliche Altersvorsorge und moderne Ausstattung.',
] as const;
export const JOB_TASKS_EN = [
  'You work closely with our product team and contribute your own ideas.',
  'You own your projects – from planning to delivery.',
  'You look after our customers and are their first point of contact.',
  'You improve our processes and make sure quality stays high.',
  'You document results and present them to the team.',
] as const;
export const JOB_OFFER_EN = [
  'Flexible hours and the option to work remotely.',
  '30 days of holiday, bike leasing and a public transport allowance.',
  'An open team with flat hierarchies.',
  'A personal learning budget of EUR 1,500 per year.',
  'Company pension scheme and modern equipment.',
] as const;

/** Event formats: [title_de, summary_de, title_en, summary_en, category]. */
export const EVENT_FORMATS: readonly (readonly [string, string, string, string, string])[] = [
  ['Gründerfrühstück', 'Kaffee, Brötchen und ehrliche Gespräche über die ersten Schritte als Gründerin oder Gründer.',
    'Founders\' breakfast', 'Coffee, rolls and honest conversations about the first steps as a founder.', 'business'],
  ['Pitch Night', 'Fünf Teams, fünf Minuten, ein Publikum voller Fragen – danach Networking.',
    'Pitch night', 'Five teams, five minutes, an audience full of questions – networking afterwards.', 'business'],
  ['Hackathon: Smarte Stadt', '48 Stunden, um Ideen für eine lebenswertere Stadt zu programmieren.',
    'Hackathon: Smart City', '48 hours to code ideas for a more liveable city.', 'technology'],
  ['Meetup: Barrierefreie Webentwicklung', 'Praxisbeispiele und Tools für barrierefreie Websites.',
    'Meetup: Accessible Web Development', 'Practical examples and tools for accessible websites.', 'technology'],
  ['Workshop: Fördermittel richtig beantragen', 'Wie ihr Förderprogramme findet und Anträge schreibt, die überzeugen.',
    'Workshop: Applying for Funding', 'How to find funding programmes and write convincing applications.', 'community'],
  ['Repair-Café', 'Gemeinsam reparieren statt wegwerfen – bringt mit, was kaputt ist.',
    'Repair café', 'Repair together instead of throwing away – bring what is broken.', 'environment'],
  ['Netzwerkabend für Kreative', 'Designerinnen, Fotografen und Texterinnen lernen sich kennen.',
    'Networking evening for creatives', 'Designers, photographers and copywriters get to know each other.', 'art'],
  ['Vortrag: Klimaneutral wirtschaften', 'Was kleine Unternehmen konkret tun können – mit Beispielen aus der Region.',
    'Talk: Climate-neutral Business', 'What small companies can actually do – with local examples.', 'environment'],
  ['Lauftreff-Start', 'Wir starten in die neue Saison – alle Tempogruppen willkommen.',
    'Running group kick-off', 'We start the new season – all paces welcome.', 'health'],
  ['Science Slam', 'Forschende erklären ihre Arbeit in zehn Minuten – das Publikum stimmt ab.',
    'Science slam', 'Researchers explain their work in ten minutes – the audience votes.', 'science'],
  ['Ehrenamtsbörse', 'Vereine und Initiativen stellen sich vor und suchen Unterstützung.',
    'Volunteering fair', 'Clubs and initiatives introduce themselves and look for support.', 'social'],
  ['Lernwerkstatt: KI im Unterricht', 'Lehrkräfte probieren KI-Werkzeuge aus und diskutieren Chancen und Grenzen.',
    'Learning lab: AI in the classroom', 'Teachers try out AI tools and discuss opportunities and limits.', 'education'],
];

export const VENUES = [
  'Impact Hub', 'Stadtbibliothek', 'Volkshochschule', 'Kulturzentrum', 'Gründerzentrum', 'Coworking Space',
  'Rathaus, Ratssaal', 'Alte Feuerwache', 'Technologiepark', 'Stadtteilzentrum',
] as const;

export const CHAT_DE: readonly (readonly string[])[] = [
  ['Hallo! Ich habe dein Projekt gesehen und finde die Idee richtig gut.', 'Danke dir! Was hat dich daran angesprochen?',
    'Ich arbeite selbst im Bereich UX und könnte mir vorstellen, ein paar Stunden pro Woche mitzumachen.', 'Das klingt super. Hast du nächste Woche Zeit für einen kurzen Call?',
    'Dienstag ab 18 Uhr passt bei mir.', 'Perfekt, ich schicke dir einen Link.'],
  ['Hi, kommst du am Donnerstag auch zum Meetup?', 'Ja, ich bin dabei! Bringst du deinen Laptop mit?', 'Klar. Vielleicht können wir danach noch an der Demo weiterarbeiten.', 'Gute Idee 👍'],
  ['Guten Tag, ich interessiere mich für die ausgeschriebene Stelle. Ist sie noch offen?', 'Hallo, ja, die Stelle ist noch offen. Schicken Sie uns gern Ihren Lebenslauf.',
    'Mache ich heute Abend. Vielen Dank!'],
  ['Danke für das tolle Gespräch gestern!', 'Sehr gern. Ich schicke dir die Unterlagen zum Förderantrag bis Freitag.', 'Super, dann kann ich am Wochenende schon einen Entwurf schreiben.'],
  ['Wir suchen noch jemanden für das Design des Flyers. Hättest du Lust?', 'Wie viel Zeit bleibt bis zum Druck?', 'Etwa zwei Wochen.', 'Das schaffe ich. Schick mir gern eure Texte und das Logo.'],
];
export const CHAT_EN: readonly (readonly string[])[] = [
  ['Hi! I saw your project and really like the idea.', 'Thanks! What caught your eye?', 'I work in data analysis and could help with the evaluation.',
    'That would be great. Do you have time for a quick call next week?', 'Wednesday afternoon works for me.'],
  ['Are you coming to the hackathon on Saturday?', 'Yes! Do you already have a team?', 'Not yet – want to team up?', 'Sure, see you there.'],
  ['Thanks for accepting my contact request.', 'Of course! How can I help?', 'I am looking for feedback on my pitch deck.', 'Send it over, I will have a look this week.'],
];

export const FEEDBACK_DE = [
  'Die Suche funktioniert super, ich habe sofort passende Projekte gefunden.',
  'Es wäre toll, wenn man Veranstaltungen direkt in den Kalender exportieren könnte.',
  'Auf dem Handy ist die Kartenansicht etwas klein.',
  'Bitte eine Benachrichtigung, wenn jemand auf meine Kontaktanfrage antwortet!',
  'Tolle Plattform – ich habe über Teamwerk meine Mitgründerin kennengelernt.',
] as const;
export const FEEDBACK_EN = [
  'Search works great, I found matching projects right away.',
  'It would be nice to filter jobs by salary.',
  'Dark mode would be appreciated.',
  'Great platform – I met my co-founder through Teamwerk.',
] as const;

export const CONTACT_SUBJECTS = [
  ['Frage zu meiner Rechnung', 'support'], ['Enterprise-Angebot für unser Unternehmen', 'enterprise'],
  ['Presseanfrage', 'press'], ['Kooperationsidee', 'general'], ['Kündigung meines Abos', 'cancellation'],
] as const;
