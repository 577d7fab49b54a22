// A deterministic vault of realistic notes for benchmarks: the same `seed` and `notes` always give
// the same files, byte for byte (a seeded PRNG, never Math.random).
//   import { generateVault } from './generateVault.mjs';
//   const { files, bytes } = await generateVault('/tmp/vault', { notes: 10000, seed: 42 });
// Each note is 2–4 KB of markdown: YAML frontmatter (tags, aliases, dates), headings, paragraphs,
// task lists, and [[wikilinks]] to other generated notes (some with |alias, some with #heading),
// spread over 50 folders (some nested two levels). Plus `.obsidian/app.json`.
// The prose comes from about 190 words by default; `vocabulary: 'english'` draws it from about
// 2,700 real English words by Zipf's law, with names, numbers and identifiers as a long tail, for
// benchmarks of full-text search, whose cost depends on the number of distinct terms.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { eachLimited } from './benchTools.mjs';

/** 50 folders: 10 at the top, 30 one level down, 10 two levels down. */
export const FOLDERS = [
  'Inbox', 'Projects', 'Areas', 'Resources', 'Archive', 'People', 'Journal', 'Meetings', 'Reading', 'Ideas',
  'Projects/Alpha', 'Projects/Beta', 'Projects/Gamma', 'Projects/Delta', 'Projects/Website Redesign', 'Projects/Garden',
  'Areas/Health', 'Areas/Finance', 'Areas/Home', 'Areas/Career', 'Areas/Learning',
  'Resources/Programming', 'Resources/Design', 'Resources/Cooking', 'Resources/Travel', 'Resources/Music',
  'Archive/2021', 'Archive/2022', 'Archive/2023', 'People/Family', 'People/Colleagues',
  'Journal/2023', 'Journal/2024', 'Journal/2025', 'Meetings/Weekly', 'Meetings/Clients',
  'Reading/Books', 'Reading/Articles', 'Reading/Papers', 'Ideas/Writing',
  'Projects/Alpha/Research', 'Projects/Alpha/Specs', 'Projects/Beta/Research',
  'Resources/Programming/TypeScript', 'Resources/Programming/Rust', 'Resources/Programming/Git',
  'Reading/Books/Fiction', 'Reading/Books/Nonfiction', 'Areas/Learning/Languages', 'Archive/2022/Projects',
];

/** Every note has these sections in this order (a prefix of them), so `[[Note#Summary]]` resolves. */
const SECTIONS = ['Summary', 'Context', 'Notes', 'Open questions', 'Next steps', 'References', 'Log', 'Details'];

const WORDS = (
  'the a of and to in is that for on with as it be by this are from at or an was which not have can will ' +
  'system design memory garden project review draft outline research method result evidence question answer ' +
  'budget schedule meeting client server cache index commit branch merge history change file folder note link ' +
  'graph vault plugin agent model prompt context token search query ranking summary insight pattern habit ' +
  'sleep running recipe bread coffee travel train station museum library book chapter author argument theory ' +
  'experiment sample measure baseline target latency throughput storage network mobile desktop sync conflict ' +
  'release version feature issue bug test fixture contract policy path rule error message retry timeout ' +
  'weekly quarterly plan goal milestone estimate risk decision tradeoff option constraint assumption ' +
  'quickly carefully often rarely clearly mostly nearly simply early later again together instead already ' +
  'small large simple careful useful slow fast stable fragile obvious subtle practical rough final open'
).split(' ');
const TITLE_WORDS = (
  'Atlas Beacon Canvas Delta Ember Fable Harbor Island Juniper Kernel Lantern Meadow Nimbus Orbit Prism ' +
  'Quartz Ridge Summit Timber Umbra Vector Willow Zenith Anchor Bramble Cascade Drift Echo Falcon Grove ' +
  'Horizon Ivory Jasper Keystone Lumen Mosaic Nectar Onyx Pioneer Quill Raven Sable Tundra Ultra Velvet ' +
  'Wander Yarrow Zephyr Amber Basalt Cinder Dune Fern Glacier Heron Indigo'
).split(' ');
const TITLE_NOUNS = (
  'Notes Plan Review Ideas Research Overview Checklist Retrospective Proposal Reading Summary Journal ' +
  'Architecture Experiment Budget Roadmap Interview Recipe Trip Workshop Draft Questions Log Map'
).split(' ');
const TAGS = (
  'project reading idea meeting person health finance home career learning programming design cooking travel ' +
  'music archive draft todo review reference evergreen seedling research/paper research/method area/work area/life'
).split(' ');
const PEOPLE = 'Ada Grace Alan Barbara Edsger Donald Margaret Ken Linus Radia Tim Frances Niklaus Leslie Hedy'.split(' ');

/**
 * For `vocabulary: 'english'`: about 2,700 real English words, the commonest first (function words,
 * then everyday words, then the topics a personal vault holds), drawn with Zipf's law, so a few
 * words are everywhere and most are rare, as in real prose. Written for these benchmarks.
 */
const ENGLISH = (
  // function words and the most frequent verbs
  'the of and to a in is that it for was on with as be by at this are from or have an not they but ' +
  'which you his had we were their one all there been has more she when would can will if her what ' +
  'so about no out up into them some could than its other then only time two these may like first ' +
  'also new any over do after most our very my just me should him how where made through well ' +
  'because did such those before many must between each even being much both under same own while ' +
  'does still here never again against without off down back whether during another because since ' +
  'though although however until among within upon toward across around almost already always often ' +
  'perhaps rather quite enough every few several less least once twice usually maybe either neither ' +
  'nor yet whose whom why anything something nothing everything someone anyone everyone nobody ' +
  'myself yourself himself herself itself ourselves themselves above below behind beside beyond ' +
  'inside outside near along past via per despite instead unless whereas therefore thus hence ' +
  'get got make makes made take took taken go goes went gone come came see saw seen know knew known ' +
  'think thought say said says use used using find found give gave given tell told work works worked ' +
  'working call called try tried ask asked need needed feel felt become became leave left put mean ' +
  'meant keep kept let begin began seem seemed help helped show showed shown hear heard play played ' +
  'run ran move moved live lived believe believed bring brought happen happened write wrote written ' +
  'sit sat stand stood lose lost pay paid meet met include included continue continued set learn ' +
  'learned change changed lead led understand understood watch watched follow followed stop stopped ' +
  'create created speak spoke read allow allowed add added spend spent grow grew open opened walk ' +
  'walked win won offer offered remember remembered love loved consider considered appear appeared ' +
  'buy bought wait waited serve served die died send sent expect expected build built stay stayed ' +
  'fall fell cut reach reached kill remain remained suggest suggested raise raised pass passed sell ' +
  'sold require required report reported decide decided pull pulled ' +
  // everyday nouns, adjectives and adverbs
  'people year years way day days thing things man men woman women child children world life hand ' +
  'part place case week weeks company system program question work government number night point ' +
  'home water room mother father area money story fact month months lot right study book eye job ' +
  'word words business issue side kind head house service friend friends power hour hours game line ' +
  'end member law car city community name president team minute idea kid body information back ' +
  'parent face others level office door health person art war history party result change morning ' +
  'reason research girl guy moment air teacher force education foot boy age policy process music ' +
  'market sense nation plan college interest death experience effect class control care field ' +
  'development role effort rate heart drug show leader light voice wife police mind price report ' +
  'decision son view relationship town road arm difference value building action model season ' +
  'society tax director position player record paper space ground form event official matter center ' +
  'couple site project activity star table need court oil situation cost industry figure street ' +
  'image phone data picture practice piece land product doctor wall patient worker news test movie ' +
  'north love support technology step baby computer type attention film tree source organization ' +
  'hair window evidence population site training science sort trouble period analysis theory ' +
  'good new first last long great little own other old right big high different small large next ' +
  'early young important few public bad same able late hard major better economic strong possible ' +
  'whole free military true federal international full special easy clear recent certain personal ' +
  'open red difficult available likely short single medical current wrong private past foreign fine ' +
  'common poor natural significant similar hot dead central happy serious ready simple left physical ' +
  'general environmental financial blue democratic dark various entire close legal religious cold ' +
  'final main green nice huge popular traditional cultural wide particular deep quick slow quiet ' +
  'really most well even back still also just now then here there today together however almost ' +
  'actually probably already finally recently quickly certainly clearly simply especially exactly ' +
  'nearly slowly suddenly directly easily generally mostly rarely carefully honestly gently briefly ' +
  'anyway somewhere elsewhere tomorrow yesterday tonight soon later earlier lately forward ahead ' +
  'apart aside abroad indeed otherwise meanwhile eventually immediately gradually originally ' +
  // work, projects and meetings
  'project projects meeting meetings agenda minutes action items deadline deadlines milestone ' +
  'milestones roadmap priority priorities backlog sprint retrospective standup kickoff review reviews ' +
  'feedback proposal proposals draft drafts outline summary summaries stakeholder stakeholders client ' +
  'clients customer customers vendor contract contracts budget budgets forecast estimate estimates ' +
  'schedule schedules timeline scope requirement requirements specification deliverable deliverables ' +
  'objective objectives goal goals outcome outcomes metric metrics dashboard quarter quarterly annual ' +
  'weekly monthly daily status update updates blocker blockers risk risks dependency dependencies ' +
  'assumption assumptions constraint constraints tradeoff tradeoffs option options alternative ' +
  'recommendation recommendations approval approved rejected pending postponed cancelled delayed ' +
  'launch launched release released rollout pilot prototype iteration experiment experiments ' +
  'hypothesis validation strategy strategic tactical operational initiative initiatives workshop ' +
  'presentation slides demo hiring interview interviews candidate candidates onboarding manager ' +
  'managers colleague colleagues mentor mentoring coaching promotion salary career responsibilities ' +
  'ownership accountability alignment consensus escalation negotiation partnership partner partners ' +
  'invoice invoices payment payments expense expenses revenue profit margin pricing discount ' +
  'procurement compliance audit legal regulation regulations privacy security incident incidents ' +
  'postmortem handover handoff documentation template templates checklist checklists process ' +
  'processes workflow workflows bottleneck capacity allocation headcount resourcing planning ' +
  'prioritization delegation followup reminder reminders calendar appointment appointments ' +
  // software and computing
  'software hardware code coding developer developers engineering engineer engineers architecture ' +
  'design designs interface interfaces component components module modules package packages library ' +
  'libraries framework frameworks function functions method methods class classes object objects ' +
  'variable variables parameter parameters argument arguments return returns value values type types ' +
  'string strings integer boolean array arrays list lists map maps dictionary tree trees graph graphs ' +
  'node nodes edge edges queue stack heap pointer reference references memory cache caching index ' +
  'indexes indexing database databases query queries table tables schema migration migrations column ' +
  'columns row rows transaction transactions server servers client request requests response ' +
  'responses endpoint endpoints api apis protocol network latency throughput bandwidth timeout ' +
  'timeouts retry retries error errors exception exceptions bug bugs fix fixes patch patches crash ' +
  'crashes debug debugging logging logs log trace tracing monitoring alert alerts deploy deployment ' +
  'deployments container containers cluster clusters kubernetes docker cloud storage disk file files ' +
  'folder folders directory directories path paths repository repositories commit commits branch ' +
  'branches merge merged rebase conflict conflicts diff history version versions versioning tag tags ' +
  'build builds compile compiler runtime script scripts shell terminal command commands config ' +
  'configuration environment variable settings plugin plugins extension extensions browser website ' +
  'web page pages frontend backend mobile desktop app apps application applications user users ' +
  'account accounts login password authentication authorization token tokens session sessions ' +
  'encryption key keys certificate sync synchronization offline online upload download import export ' +
  'parser parsing syntax regex search searching ranking relevance vector vectors embedding embeddings ' +
  'model models prompt prompts agent agents inference training dataset datasets benchmark benchmarks ' +
  'baseline performance optimization profiling profiler concurrency parallel thread threads async ' +
  'await promise promises callback event events listener handler state reducer store render ' +
  'rendering layout style styles stylesheet markdown editor editors vault vaults note notes notebook ' +
  'backup backups restore recovery refactor refactoring cleanup legacy technical debt test tests ' +
  'testing unit integration fixture fixtures mock mocks coverage assertion regression linting ' +
  'formatting typescript javascript python rust golang java kotlin swift linux windows macos android ' +
  'iphone laptop keyboard monitor screen mouse printer router wifi battery charger cable ' +
  'algorithm algorithms complexity recursion iteration sorting hashing hash checksum compression ' +
  'serialization json yaml csv xml html css http https url urls domain dns proxy firewall ' +
  // research, science and learning
  'paper papers article articles journal journals study studies researcher researchers scientist ' +
  'scientists experiment measurement measurements observation observations sample samples data ' +
  'statistics statistical significance correlation causation variance distribution mean median ' +
  'average deviation probability regression classification clustering prediction predictions ' +
  'accuracy precision recall error bias noise signal method methodology literature citation ' +
  'citations abstract introduction conclusion conclusions discussion appendix figure figures chart ' +
  'charts diagram diagrams equation equations formula proof theorem lemma definition concept ' +
  'concepts framework principle principles argument claim claims counterargument premise inference ' +
  'reasoning logic evidence finding findings insight insights question questions answer answers ' +
  'problem problems solution solutions approach approaches technique techniques lesson lessons ' +
  'course courses lecture lectures seminar textbook exercise exercises homework exam exams grade ' +
  'grades university school student students professor curriculum syllabus tutorial tutorials ' +
  'physics chemistry biology mathematics math geometry algebra calculus economics psychology ' +
  'philosophy sociology linguistics history geography astronomy ecology genetics neuroscience ' +
  'cognition cognitive attention perception memory learning habits motivation behavior emotion ' +
  'emotions language languages grammar vocabulary pronunciation translation spanish french german ' +
  'italian japanese chinese portuguese dutch korean english flashcards fluency ' +
  // reading, writing and ideas
  'book books novel novels chapter chapters author authors writer writers reader readers reading ' +
  'poem poems poetry essay essays fiction nonfiction biography memoir quote quotes quotation ' +
  'highlight highlights annotation annotations margin review character characters plot narrative ' +
  'theme themes setting protagonist dialogue scene scenes ending beginning sequel series publisher ' +
  'edition library libraries bookstore podcast podcasts episode episodes interview newsletter blog ' +
  'post posts headline thread comment comments opinion perspective idea ideas thought thoughts ' +
  'brainstorm brainstorming sketch sketches mindmap concept draft revision revisions editing ' +
  'outline structure paragraph paragraphs sentence sentences metaphor analogy story stories ' +
  'storytelling audience tone voice clarity writing journaling reflection reflections gratitude ' +
  'inspiration curiosity creativity imagination wisdom knowledge understanding meaning purpose ' +
  'values belief beliefs principle mindset perspective bias biases fallacy fallacies paradox ' +
  // health, body and fitness
  'sleep slept nap tired energy exercise workout workouts running run ran jog jogging walk walking ' +
  'hike hiking cycling bike swimming swim yoga stretching strength squat squats deadlift bench ' +
  'pushups pullups cardio marathon race pace distance kilometers miles steps heart rate pulse ' +
  'blood pressure weight calories protein carbs fat fiber vitamin vitamins supplement supplements ' +
  'diet nutrition meal meals breakfast lunch dinner snack snacks hydration headache migraine fever ' +
  'cough cold flu allergy allergies injury knee back shoulder ankle wrist pain ache recovery rest ' +
  'doctor dentist appointment checkup therapy therapist physiotherapy medication prescription dose ' +
  'symptoms diagnosis treatment hospital clinic insurance stress anxiety mood calm meditation ' +
  'breathing mindfulness burnout wellbeing routine routines habit tracker streak ' +
  // food and cooking
  'recipe recipes cooking cook cooked bake baking baked oven stove pan pot skillet knife cutting ' +
  'board bowl spoon whisk flour sugar salt pepper butter oil olive garlic onion onions tomato ' +
  'tomatoes potato potatoes carrot carrots pepper peppers spinach lettuce cabbage broccoli mushroom ' +
  'mushrooms lemon lime orange apple apples banana berries strawberry blueberry cherry grape grapes ' +
  'rice pasta noodles bread dough yeast sourdough starter loaf crust cheese milk cream yogurt egg ' +
  'eggs chicken beef pork fish salmon tuna shrimp tofu beans lentils chickpeas soup stew curry ' +
  'sauce dressing salad sandwich pizza pie cake cookies muffin pancake pancakes waffles chocolate ' +
  'vanilla cinnamon ginger cumin paprika basil parsley cilantro thyme rosemary oregano honey vinegar ' +
  'mustard ketchup mayonnaise coffee espresso latte tea green herbal juice wine beer water cup cups ' +
  'tablespoon teaspoon gram grams kilogram liter minutes simmer boil fry roast grill chop slice dice ' +
  'stir mix knead proof ferment season taste flavor sweet sour bitter salty spicy crispy tender ' +
  'grocery groceries shopping market pantry fridge freezer leftovers ' +
  // travel and places
  'travel trip trips journey vacation holiday holidays weekend flight flights airport airline ' +
  'boarding gate passport visa luggage suitcase backpack hotel hostel booking reservation ' +
  'itinerary destination map maps route train trains station platform ticket tickets bus subway ' +
  'metro tram taxi car rental road highway bridge tunnel border coast beach island mountain ' +
  'mountains valley lake river forest desert village town capital downtown neighborhood street ' +
  'square park museum museums gallery cathedral church castle palace temple market harbor port ' +
  'ferry cruise camping tent sunrise sunset view views landscape tour guide guidebook souvenir ' +
  'restaurant restaurants cafe bar bakery breakfast local culture festival currency exchange ' +
  // money and finance
  'money finance finances bank banking account savings saving checking credit debit card loan ' +
  'mortgage rent lease interest rate inflation investment investments invest investing stock ' +
  'stocks bond bonds fund funds portfolio dividend dividends retirement pension taxes tax return ' +
  'deduction receipt receipts bill bills subscription subscriptions utilities electricity gas ' +
  'internet phone insurance premium spending income salary paycheck bonus budget budgeting ' +
  'expense cost costs price prices purchase purchases refund donation donations net worth ' +
  'emergency allowance wallet cash transfer balance statement statements ' +
  // home, garden and family
  'house home apartment flat kitchen bathroom bedroom living room garage basement attic garden ' +
  'gardening yard lawn fence roof window windows door doors floor floors wall walls ceiling paint ' +
  'painting furniture sofa couch chair chairs table desk shelf shelves bed mattress pillow blanket ' +
  'curtains lamp lights bulb heating cooling heater thermostat plumbing leak repair repairs ' +
  'renovation contractor tools drill hammer screwdriver screws nails ladder cleaning laundry ' +
  'dishes vacuum trash recycling compost seeds seedlings soil mulch fertilizer watering plant ' +
  'plants tomato herbs flowers roses tulips shrubs hedge pruning harvest weeds pest pests bees ' +
  'family parents mother father mom dad sister brother son daughter grandmother grandfather aunt ' +
  'uncle cousin cousins wife husband partner baby kids child toddler teenager neighbor neighbors ' +
  'friend friendship birthday anniversary wedding party gift gifts dinner visit visited ' +
  'pet pets dog dogs cat cats puppy kitten vet walk feeding ' +
  // nature, weather and time
  'weather rain rainy snow snowy sun sunny cloud cloudy wind windy storm thunder lightning fog ' +
  'temperature degrees warm hot cold cool humid dry spring summer autumn fall winter season ' +
  'morning afternoon evening night midnight noon dawn dusk monday tuesday wednesday thursday ' +
  'friday saturday sunday january february march april may june july august september october ' +
  'november december calendar date dates today tomorrow yesterday week weekend month year decade ' +
  'century moment hour hours minute minutes second seconds deadline duration interval ' +
  'sky stars moon ocean sea waves sand rock rocks stone stones hill hills field fields meadow ' +
  'grass leaves leaf branch branches roots wood woods bird birds fox deer owl fish insects ' +
  // music and art
  'music song songs album albums playlist band bands concert concerts guitar piano violin drums ' +
  'bass singing singer melody harmony rhythm chord chords scale scales practice lesson tempo ' +
  'composer composition jazz classical rock folk pop electronic vinyl headphones speaker ' +
  'art artist artists drawing sketching watercolor canvas brush color colors palette portrait ' +
  'photography photo photos camera lens exhibition film films movie movies documentary series ' +
  'show shows season episode theater dance design typography font fonts illustration ' +
  // feelings and personal reflection
  'happy sad angry afraid worried excited grateful proud tired bored curious confused frustrated ' +
  'relieved hopeful anxious lonely content calm nervous surprised disappointed motivated ' +
  'overwhelmed focused distracted productive lazy energetic restless peaceful joy fear anger ' +
  'sadness hope trust doubt confidence patience kindness honesty courage discipline ' +
  'procrastination focus distraction balance boundaries priorities ambition regret forgiveness ' +
  // more verbs, in their common forms
  'accept accepted achieve achieved adjust adjusted agree agreed analyze analyzed announce apply ' +
  'applied arrange arranged arrive arrived assign assigned assume assumed attach attached attend ' +
  'attended avoid avoided borrow break broke broken calculate cancel cancelled celebrate check ' +
  'checked choose chose chosen clarify clean cleaned collect collected combine compare compared ' +
  'complete completed confirm confirmed connect connected contact contacted copy copied correct ' +
  'cover covered define defined delete deleted deliver delivered depend describe described ' +
  'discover discovered discuss discussed document documented drop dropped edit edited enable ' +
  'enabled ensure enter entered estimate evaluate evaluated explain explained explore explored ' +
  'extend extended fail failed fill filled finish finished fit fixed focus focused forget forgot ' +
  'gather generate handle handled hope hoped identify identified ignore ignored improve improved ' +
  'increase increased install installed investigate join joined jump label launch limit limited ' +
  'link linked listen listened load loaded locate maintain manage managed mark marked measure ' +
  'measured mention mentioned miss missed notice noticed obtain order ordered organize organized ' +
  'outline pack packed perform pick picked plan planned prefer prepare prepared present prevent ' +
  'print produce produced protect prove provide provided publish published push pushed rank rate ' +
  'receive received recommend recommended record recorded reduce reduced refer reflect refresh ' +
  'reject release remove removed rename repeat repeated replace replaced reply request resolve ' +
  'resolved respond restart review reviewed revise save saved schedule scheduled select share ' +
  'shared ship shipped sign simplify skip solve solved sort split start started store submit ' +
  'submitted succeed summarize supply suppose switch teach test tested thank track tracked ' +
  'train trained transfer translate travel traveled treat trust turn turned undo update updated ' +
  'upgrade verify verified visit wake wash wish wonder worry write ' +
  // more adjectives
  'accurate active actual additional advanced afraid alive annual anxious apparent appropriate ' +
  'automatic average aware basic beautiful boring brief bright broad broken busy careful casual ' +
  'cheap complex complete confident consistent constant correct crazy critical curious dangerous ' +
  'detailed direct distinct domestic dramatic dry due eager effective efficient elegant empty ' +
  'essential exact excellent expensive explicit external extra extreme fair familiar famous fast ' +
  'favorite flexible formal fragile frequent fresh friendly funny gentle global graceful grateful ' +
  'handy healthy heavy helpful honest ideal immediate implicit initial innocent intense internal ' +
  'interesting junior keen key lazy light limited literal logical loose loud lovely lucky manual ' +
  'massive mature messy minimal minor missing modern modest narrow neat negative nervous neutral ' +
  'normal novel obvious occasional odd official optional ordinary organic original outdated ' +
  'overdue painful patient perfect permanent plain pleasant positive powerful practical precise ' +
  'pretty previous primary proper proud pure random rare raw realistic reasonable redundant ' +
  'regular relevant reliable remote repeated responsible rich robust rough round rude safe scary ' +
  'secondary secret secure senior sensitive separate sharp shy silent silly sincere smart smooth ' +
  'soft solid sore sorry specific stable steady steep sticky stiff strange strict stubborn ' +
  'sudden sufficient suitable sure sweet tall temporary terrible thick thin tidy tight tiny ' +
  'total tough tricky typical ugly unclear unique unknown unusual upset urgent useful useless ' +
  'valid vague valuable visible vital warm weak weird wet wild wise wooden worried worth yellow'
).split(' ');

/** Names of places, people and things for `vocabulary: 'english'`: the capitalized long tail. */
const PROPER = (
  'London Paris Berlin Madrid Lisbon Rome Vienna Prague Amsterdam Copenhagen Stockholm Oslo Helsinki ' +
  'Dublin Edinburgh Zurich Geneva Barcelona Porto Seville Naples Florence Venice Munich Hamburg ' +
  'Tokyo Kyoto Osaka Seoul Beijing Shanghai Singapore Bangkok Hanoi Delhi Mumbai Istanbul Athens ' +
  'Cairo Nairobi Lagos Boston Chicago Seattle Portland Denver Austin Toronto Montreal Vancouver ' +
  'Mexico Lima Santiago Sydney Melbourne Auckland Iceland Norway Japan Portugal Italy Spain France ' +
  'Germany Canada Brazil Chile Peru Kenya Morocco Greece Turkey Vietnam Alps Pyrenees Andes ' +
  'Sarah Michael David Emma Olivia Liam Noah Sophia James Lucas Mia Ethan Chloe Daniel Hannah ' +
  'Marco Yuki Priya Omar Fatima Mateo Lena Jonas Ingrid Tomas Aisha Kenji Elena Pablo Nadia ' +
  'Obsidian Notion Zotero Anki Readwise Figma Slack Jira GitHub Gitlab Postgres Redis Kafka ' +
  'Chrome Firefox Safari Kindle Spotify Strava Garmin Excel Word Zoom Dropbox Linear Trello ' +
  'Stoicism Seneca Aristotle Plato Darwin Newton Einstein Curie Turing Knuth Dijkstra Lovelace ' +
  'Tolkien Austen Orwell Woolf Borges Calvino Murakami Tolstoy Dostoevsky Kafka Chekhov Homer'
).split(' ');

/** sfc32: small, fast, and good enough for benchmark data; seeded by splitmix32. */
export function createRng(seed) {
  let state = seed >>> 0;
  const splitmix = () => {
    state = (state + 0x9e3779b9) >>> 0;
    let z = state;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return (z ^ (z >>> 16)) >>> 0;
  };
  let a = splitmix();
  let b = splitmix();
  let c = splitmix();
  let d = splitmix();
  const next = () => {
    const t = (((a + b) >>> 0) + d) >>> 0;
    d = (d + 1) >>> 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) >>> 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) >>> 0;
    return t / 4294967296;
  };
  for (let i = 0; i < 12; i++) next();
  return {
    next,
    /** Integer in [min, max]. */
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    pick: (list) => list[Math.floor(next() * list.length)],
    chance: (p) => next() < p,
  };
}

const capitalize = (word) => word[0].toUpperCase() + word.slice(1);
const pad = (n) => String(n).padStart(2, '0');

/** A date (YYYY-MM-DD) `days` after 2021-01-01. */
function isoDate(days) {
  const date = new Date(Date.UTC(2021, 0, 1) + days * 86400000);
  return `${date.getUTCFullYear()}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}`;
}

/** Where every note goes and what it is called, decided before any content so links can point forward. */
function planNotes(rng, count) {
  const used = new Set();
  const unique = (title) => {
    let name = title;
    for (let n = 2; used.has(name.toLowerCase()); n++) name = `${title} ${n}`;
    used.add(name.toLowerCase());
    return name;
  };
  const plan = [];
  for (let i = 0; i < count; i++) {
    let folder = FOLDERS[i % FOLDERS.length]; // every folder gets its share
    let title;
    if (folder.startsWith('Journal')) {
      const year = folder === 'Journal' ? rng.int(2023, 2025) : Number(folder.slice(-4));
      folder = `Journal/${year}`;
      title = isoDate((year - 2021) * 365 + rng.int(0, 364));
    } else if (folder.startsWith('Meetings')) {
      title = `${isoDate(rng.int(700, 1800))} ${rng.pick(TITLE_WORDS)} sync with ${rng.pick(PEOPLE)}`;
    } else if (folder.startsWith('People')) {
      title = `${rng.pick(PEOPLE)} ${rng.pick(TITLE_WORDS)}`;
    } else {
      title = `${rng.pick(TITLE_WORDS)} ${rng.pick(TITLE_WORDS).toLowerCase()} ${rng.pick(TITLE_NOUNS).toLowerCase()}`;
    }
    const name = unique(title);
    plan.push({ folder, name, path: `${folder}/${name}.md` });
  }
  return plan;
}

/**
 * How prose words are drawn. `basic` (the default, kept byte for byte as it always was): one of
 * `WORDS`, uniformly. `english`: `ENGLISH` by Zipf's law, plus a long tail of names, numbers and
 * commit hashes, and code identifiers made of two words.
 */
function vocabularyFor(vocabulary, rng) {
  if (vocabulary === 'basic') return { word: () => rng.pick(WORDS), identifier: () => rng.pick(WORDS), tail: null };
  const words = [...new Set(ENGLISH)];
  // Zipf–Mandelbrot: the word of rank r (from 0) is drawn with weight 1 / (r + 2.7).
  const cumulative = new Float64Array(words.length);
  let total = 0;
  for (let r = 0; r < words.length; r++) cumulative[r] = total += 1 / (r + 2.7);
  const word = () => {
    const x = rng.next() * total;
    let lo = 0;
    let hi = words.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (cumulative[mid] < x) lo = mid + 1;
      else hi = mid;
    }
    return words[lo];
  };
  const content = words.slice(words.indexOf('people')); // past the function words
  const identifier = () => `${rng.pick(content)}${capitalize(rng.pick(content))}`;
  const tail = () => {
    const roll = rng.next();
    if (roll < 0.45) return rng.pick(PROPER);
    if (roll < 0.6) return String(rng.int(0, 5000));
    if (roll < 0.7) return `${rng.int(1, 99)}.${rng.int(0, 9)}%`;
    if (roll < 0.8) return `${pad(rng.int(6, 22))}:${pad(rng.pick([0, 15, 30, 45]))}`;
    if (roll < 0.87) return `v${rng.int(0, 5)}.${rng.int(0, 20)}.${rng.int(0, 9)}`;
    return `\`${rng.int(0, 0xfffffff).toString(16).padStart(7, '0')}\``;
  };
  return { word, identifier, tail };
}

function sentence(rng, plan, self, vocab) {
  const length = rng.int(8, 18);
  const words = [];
  for (let w = 0; w < length; w++) {
    const roll = rng.next();
    if (roll < 0.025) {
      const target = plan[rng.int(0, plan.length - 1)];
      if (target === self) continue;
      const kind = rng.next();
      if (kind < 0.6) words.push(`[[${target.name}]]`);
      else if (kind < 0.8) words.push(`[[${target.name}|${vocab.word()} ${vocab.word()}]]`);
      else words.push(`[[${target.name}#${rng.pick(SECTIONS.slice(0, 3))}]]`);
    } else if (roll < 0.035) words.push(`#${rng.pick(TAGS)}`);
    else if (roll < 0.045) words.push(`**${vocab.word()}**`);
    else if (roll < 0.05) words.push(`\`${vocab.identifier()}()\``);
    else if (vocab.tail !== null && roll < 0.065) words.push(vocab.tail());
    else words.push(vocab.word());
  }
  return `${capitalize(words[0] ?? 'note')} ${words.slice(1).join(' ')}.`;
}

function paragraph(rng, plan, self, vocab) {
  const sentences = [];
  for (let s = rng.int(2, 5); s > 0; s--) sentences.push(sentence(rng, plan, self, vocab));
  return `${sentences.join(' ')}\n`;
}

function taskList(rng, plan, self, vocab) {
  const lines = [];
  for (let t = rng.int(2, 6); t > 0; t--) {
    const done = rng.chance(0.4) ? 'x' : ' ';
    const due = rng.chance(0.3) ? ` 📅 ${isoDate(rng.int(900, 1800))}` : '';
    lines.push(`- [${done}] ${sentence(rng, plan, self, vocab).slice(0, -1)}${due}`);
  }
  return `${lines.join('\n')}\n`;
}

function bulletList(rng, plan, self, vocab) {
  const lines = [];
  for (let t = rng.int(2, 5); t > 0; t--) {
    const target = plan[rng.int(0, plan.length - 1)];
    lines.push(rng.chance(0.5) && target !== self ? `- See [[${target.name}]]` : `- ${sentence(rng, plan, self, vocab)}`);
  }
  return `${lines.join('\n')}\n`;
}

function frontmatter(rng, note) {
  const created = rng.int(0, 1500);
  const tags = new Set();
  for (let t = rng.int(1, 4); t > 0; t--) tags.add(rng.pick(TAGS));
  const lines = ['---', `created: ${isoDate(created)}`, `updated: ${isoDate(created + rng.int(0, 300))}`, 'tags:'];
  for (const tag of tags) lines.push(`  - ${tag}`);
  if (rng.chance(0.6)) {
    lines.push('aliases:');
    for (let a = rng.int(1, 2); a > 0; a--) lines.push(`  - ${capitalize(rng.pick(WORDS))} ${rng.pick(TITLE_NOUNS).toLowerCase()} ${a}`);
  } else {
    lines.push('aliases: []');
  }
  if (rng.chance(0.5)) lines.push(`status: ${rng.pick(['active', 'done', 'waiting', 'someday'])}`);
  if (note.folder.startsWith('Reading')) lines.push(`author: "${rng.pick(PEOPLE)} ${rng.pick(TITLE_WORDS)}"`, `rating: ${rng.int(1, 5)}`);
  lines.push('---', '');
  return lines.join('\n');
}

const MIN_BYTES = 2048;
const MAX_BYTES = 4096;

/** One note: 2–4 KB (UTF-8) of frontmatter, an H1, then sections until the chosen size is reached. */
function noteText(rng, plan, self, vocab) {
  const target = rng.int(MIN_BYTES + 64, MAX_BYTES - 256);
  let text = `${frontmatter(rng, self)}# ${self.name}\n\n`;
  let size = Buffer.byteLength(text);
  for (let section = 0; size < target; section++) {
    const heading = section < SECTIONS.length ? SECTIONS[section] : `${SECTIONS[section % SECTIONS.length]} ${section}`;
    const roll = rng.next();
    const body = roll < 0.55 ? paragraph(rng, plan, self, vocab)
      : roll < 0.8 ? taskList(rng, plan, self, vocab)
        : `${paragraph(rng, plan, self, vocab)}\n${bulletList(rng, plan, self, vocab)}`;
    const block = `## ${heading}\n\n${body}\n`;
    const blockSize = Buffer.byteLength(block);
    if (size + blockSize > MAX_BYTES) {
      if (size >= MIN_BYTES) break;
      continue; // too big to fit: draw another block
    }
    text += block;
    size += blockSize;
  }
  return text;
}


/**
 * Writes a vault of `notes` notes into `dir` (created if missing; should be empty). `vocabulary` is
 * `'basic'` (the default) or `'english'` (see `vocabularyFor`).
 * @returns the vault-relative paths of the notes (in generation order) and the total bytes written.
 */
export async function generateVault(dir, { notes, seed, vocabulary = 'basic' }) {
  if (!Number.isInteger(notes) || notes < 1) throw new Error(`notes must be a positive integer, got ${notes}`);
  if (!Number.isInteger(seed)) throw new Error(`seed must be an integer, got ${seed}`);
  if (vocabulary !== 'basic' && vocabulary !== 'english') throw new Error(`vocabulary must be "basic" or "english", got ${vocabulary}`);
  const rng = createRng(seed);
  const plan = planNotes(rng, notes);
  const vocab = vocabularyFor(vocabulary, rng);
  const texts = plan.map((note) => noteText(rng, plan, note, vocab));
  const folders = new Set(plan.map((note) => note.folder));
  for (const folder of folders) await mkdir(join(dir, folder), { recursive: true });
  await mkdir(join(dir, '.obsidian'), { recursive: true });
  const app = { alwaysUpdateLinks: true, newFileLocation: 'folder', newFileFolderPath: 'Inbox', attachmentFolderPath: 'Resources', showLineNumber: true, promptDelete: false };
  await writeFile(join(dir, '.obsidian', 'app.json'), `${JSON.stringify(app, null, 2)}\n`);
  let bytes = 0;
  await eachLimited(plan, 64, async (note, i) => {
    bytes += Buffer.byteLength(texts[i]);
    await writeFile(join(dir, note.path), texts[i]);
  });
  return { files: plan.map((note) => note.path), bytes };
}
