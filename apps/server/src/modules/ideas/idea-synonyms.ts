import { normalizeText, tokenize } from './idea-terms.js';

/**
 * Common idea words in the eight UI languages (English, Spanish, Russian, Chinese, Arabic, Hindi,
 * Thai, Indonesian), plus cheap extras in German, French, Italian, Portuguese and Japanese, mapped
 * to the English words the catalogue is indexed with. A concept matches when one of its words does:
 *
 * - Latin and Cyrillic words match a whole token, or the start of one when six letters or longer
 *   ("ресторан" matches "ресторана", "restaurante" matches "restaurantes"); a phrase with spaces
 *   matches those tokens in a row.
 * - Chinese, Japanese, Thai, Arabic and Devanagari words match anywhere in the text, since those
 *   scripts do not separate words with spaces (or glue articles and prepositions to them), so very
 *   short words that hide inside longer ones are left out ("รถ" is inside "สามารถ").
 */
interface Concept {
  /** English words added to the query: category keywords and tags of the catalogue. */
  terms: string;
  words: readonly string[];
}

// Kept compact by hand: prettier would give every word a line of its own.
// prettier-ignore
const CONCEPTS: readonly Concept[] = [
  {
    terms: 'restaurant dining food menu',
    words: [
      'eatery', 'bistro', 'diner', 'trattoria', 'brasserie', 'steakhouse', 'gastropub',
      'food truck', 'restaurante', 'comida', 'cocina', 'restaurant', 'ristorante', 'osteria',
      'gaststatte', 'ресторан', 'столовая', 'бистро', 'кухня', '餐厅', '餐馆', '饭店', '饭馆', '美食', '菜单',
      'レストラン', '料理店', '食堂', '居酒屋', 'مطعم', 'مطاعم', 'طعام', 'रेस्टोरेंट', 'रेस्तरां', 'भोजनालय',
      'ढाबा', 'ร้านอาหาร', 'ภัตตาคาร', 'อาหาร', 'restoran', 'rumah makan', 'warung', 'makanan',
    ],
  },
  {
    terms: 'pizza italian restaurant',
    words: [
      'pizzeria', 'pizza', 'пицца', 'пиццерия', '披萨', 'ピザ', 'بيتزا', 'पिज़्ज़ा', 'पिज्जा', 'พิซซ่า',
    ],
  },
  {
    terms: 'italian pasta',
    words: [
      'italiano', 'italiana', 'italienisch', 'italien', 'итальянск', '意大利', 'イタリアン', 'إيطالي',
      'इतालवी', 'อิตาเลียน', 'italia',
    ],
  },
  {
    terms: 'sushi japanese restaurant',
    words: [
      'sushi', 'суши', '寿司', 'すし', 'سوشي', 'सुशी', 'ซูชิ', '日本料理', '和食', 'ramen', 'рамен', '拉面',
      'ラーメン',
    ],
  },
  {
    terms: 'mexican restaurant',
    words: [
      'mexicano', 'mexicana', 'мексиканск', '墨西哥', 'メキシコ', 'مكسيكي', 'मैक्सिकन', 'เม็กซิกัน',
      'meksiko', 'tacos', 'taqueria',
    ],
  },
  {
    terms: 'indian restaurant',
    words: [
      'indio', 'hindú', 'индийск', '印度菜', 'インド料理', 'هندي', 'भारतीय', 'อินเดีย', 'curry',
    ],
  },
  {
    terms: 'burgers restaurant',
    words: [
      'burger', 'hamburguesa', 'hamburguesas', 'бургер', '汉堡', 'ハンバーガー', 'برجر', 'बर्गर',
      'เบอร์เกอร์',
    ],
  },
  {
    terms: 'vegan vegetarian plant-based',
    words: [
      'vegano', 'vegana', 'vegetariano', 'vegetariana', 'vegetarisch', 'végétarien', 'веган',
      'вегетариан', '素食', 'ヴィーガン', 'ベジタリアン', 'نباتي', 'शाकाहारी', 'वीगन', 'มังสวิรัติ', 'วีแกน',
      'vegetarian',
    ],
  },
  {
    terms: 'cafe coffee',
    words: [
      'coffee', 'coffeeshop', 'espresso', 'cafeteria', 'cafe', 'caffe', 'kaffee', 'cafezinho',
      'кофейня', 'кофейни', 'кафе', 'кофе', '咖啡', 'カフェ', 'コーヒー', '喫茶', 'مقهى', 'قهوة', 'كافيه',
      'कैफे', 'कॉफी', 'कॉफ़ी', 'ร้านกาแฟ', 'กาแฟ', 'คาเฟ่', 'kafe', 'kopi', 'kedai kopi',
    ],
  },
  {
    terms: 'bakery pastry bread',
    words: [
      'bakery', 'patisserie', 'panaderia', 'pasteleria', 'reposteria', 'baeckerei', 'backerei',
      'boulangerie', 'panificio', 'pasticceria', 'padaria', 'пекарня', 'булочная', 'кондитерская',
      '面包', '烘焙', '甜品', 'ベーカリー', 'パン屋', 'ケーキ', 'مخبز', 'حلويات', 'बेकरी', 'เบเกอรี่', 'ขนมปัง',
      'toko roti', 'roti', 'kue',
    ],
  },
  {
    terms: 'bar brewery beer cocktails wine',
    words: [
      'pub', 'brewery', 'cerveceria', 'cerveza', 'coctel', 'cocteleria', 'vino', 'vinoteca', 'wine',
      'cocktail', 'brauerei', 'бар', 'паб', 'пивоварня', 'пиво', 'коктейль', 'вино', '酒吧', '啤酒',
      '葡萄酒', '鸡尾酒', 'ビール', 'ワイン', 'حانة', 'نبيذ', 'शराब', 'บาร์', 'เบียร์', 'ไวน์', 'kedai bir',
      'anggur',
    ],
  },
  {
    terms: 'shop store ecommerce',
    words: [
      'store', 'ecommerce', 'webshop', 'onlineshop', 'online store', 'tienda', 'tiendas',
      'boutique', 'comercio electronico', 'loja', 'negozio', 'magasin', 'laden', 'geschaft',
      'магазин', 'интернет-магазин', 'маркетплейс', 'продаж', '商店', '网店', '商城', '电商', '店铺', 'ショップ',
      '通販', 'ネットショップ', 'متجر', 'تسوق', 'दुकान', 'स्टोर', 'ऑनलाइन शॉप', 'ร้านค้า', 'ร้านออนไลน์',
      'ขายของ', 'toko', 'toko online', 'belanja', 'jualan', 'shop', 'shops',
    ],
  },
  {
    terms: 'fashion clothing apparel',
    words: [
      'clothes', 'clothing', 'apparel', 'ropa', 'moda', 'mode', 'kleidung', 'vetements',
      'abbigliamento', 'roupa', 'roupas', 'одежда', 'одежды', 'мода', '服装', '衣服', '时尚', '女装',
      'ファッション', 'アパレル', 'ملابس', 'أزياء', 'कपड़े', 'कपड़ों', 'फैशन', 'เสื้อผ้า', 'แฟชั่น',
      'pakaian', 'baju',
    ],
  },
  {
    terms: 'jewelry rings',
    words: [
      'jewellery', 'jewelry', 'joyeria', 'joyas', 'schmuck', 'bijoux', 'gioielli', 'joias',
      'ювелир', 'украшени', '珠宝', '首饰', 'ジュエリー', 'مجوهرات', 'गहने', 'आभूषण', 'เครื่องประดับ',
      'perhiasan',
    ],
  },
  {
    terms: 'shoes sneakers',
    words: [
      'zapatos', 'zapatillas', 'schuhe', 'chaussures', 'scarpe', 'sapatos', 'обувь', 'кроссовки',
      '鞋店', '鞋子', '球鞋', 'スニーカー', 'أحذية', 'जूते', 'รองเท้า', 'sepatu',
    ],
  },
  {
    terms: 'skincare beauty cosmetics',
    words: [
      'cosmetica', 'cosmeticos', 'kosmetik', 'cosmetiques', 'косметик', '化妆品', '护肤', 'コスメ', '化粧品',
      'مستحضرات التجميل', 'مكياج', 'कॉस्मेटिक', 'मेकअप', 'เครื่องสำอาง', 'สกินแคร์', 'kosmetik',
      'skincare', 'makeup', 'maquillaje',
    ],
  },
  {
    terms: 'portfolio',
    words: [
      'portafolio', 'portafolios', 'portfolio', 'портфолио', '作品集', '作品展示', 'ポートフォリオ', 'معرض أعمال',
      'أعمالي', 'पोर्टफोलियो', 'พอร์ตโฟลิโอ', 'ผลงาน', 'portofolio',
    ],
  },
  {
    terms: 'designer design',
    words: [
      'disenador', 'disenadora', 'diseno', 'designer', 'graphiste', 'дизайнер', 'дизайн', '设计师',
      'デザイナー', 'مصمم', 'مصممة', 'تصميم', 'डिज़ाइनर', 'डिजाइनर', 'डिज़ाइन', 'นักออกแบบ', 'ออกแบบ',
      'desainer', 'desain',
    ],
  },
  {
    terms: 'developer engineer',
    words: [
      'programador', 'programadora', 'desarrollador', 'desarrolladora', 'entwickler', 'developpeur',
      'sviluppatore', 'разработчик', 'программист', '程序员', '开发者', '工程师', 'エンジニア', 'プログラマー', 'مطور',
      'مبرمج', 'डेवलपर', 'प्रोग्रामर', 'นักพัฒนา', 'โปรแกรมเมอร์', 'pengembang', 'programmer',
      'coder',
    ],
  },
  {
    terms: 'photography photographer',
    words: [
      'fotografia', 'fotografo', 'fotografa', 'fotos', 'fotograf', 'photographe', 'фотограф',
      'фото', '摄影', '照片', '写真', 'カメラマン', 'تصوير', 'مصور', 'फोटोग्राफी', 'फोटोग्राफर', 'फ़ोटो',
      'ถ่ายภาพ', 'ช่างภาพ', 'fotografi', 'fotografer', 'photo', 'photos', 'photographer',
    ],
  },
  {
    terms: 'blog writing',
    words: [
      'blog', 'blogs', 'bitacora', 'блог', '博客', 'ブログ', 'مدونة', 'ब्लॉग', 'บล็อก', 'artikel',
      'articulos', 'статьи',
    ],
  },
  {
    terms: 'personal resume',
    words: [
      'curriculum', 'cv', 'resume', 'lebenslauf', 'резюме', 'личный', 'личная', '个人网站', '简历',
      '個人サイト', '履歴書', 'سيرة ذاتية', 'شخصي', 'व्यक्तिगत', 'निजी', 'बायोडाटा', 'เรซูเม่', 'ส่วนตัว',
      'pribadi', 'personal',
    ],
  },
  {
    terms: 'startup founders landing',
    words: [
      'startup', 'startups', 'start-up', 'emprendimiento', 'emprendedor', 'стартап', '创业', '初创',
      'スタートアップ', 'ناشئة', 'स्टार्टअप', 'สตาร์ทอัพ', 'rintisan',
    ],
  },
  {
    terms: 'landing',
    words: [
      'landing page', 'лендинг', '落地页', 'ランディングページ', 'صفحة هبوط', 'लैंडिंग', 'แลนดิ้งเพจ',
      'halaman arahan',
    ],
  },
  {
    terms: 'saas software',
    words: [
      'saas', 'software', 'b2b', 'программное обеспечение', 'софт', '软件', 'ソフトウェア', 'برمجيات',
      'सॉफ्टवेयर', 'ซอฟต์แวร์', 'perangkat lunak',
    ],
  },
  {
    terms: 'app mobile',
    words: [
      'aplicacion', 'aplicativo', 'applicazione', 'application', 'movil', 'приложени', 'мобильн',
      '应用程序', '手机应用', '手机', 'アプリ', 'تطبيق', 'ऐप', 'एप्लिकेशन', 'मोबाइल', 'แอป', 'แอพ', 'aplikasi',
      'ios', 'android', 'app', 'apps', 'mobile',
    ],
  },
  {
    terms: 'habits',
    words: [
      'habits', 'habit tracker', 'habitos', 'gewohnheit', 'привычк', '习惯', '習慣', 'عادات', 'आदत',
      'นิสัย', 'kebiasaan',
    ],
  },
  {
    terms: 'meditation mindfulness',
    words: [
      'meditacion', 'meditation', 'медитаци', '冥想', '瞑想', 'تأمل', 'मेडिटेशन', 'สมาธิ', 'meditasi',
    ],
  },
  {
    terms: 'podcast',
    words: [
      'podcasts', 'подкаст', '播客', 'ポッドキャスト', 'بودكاست', 'पॉडकास्ट', 'พอดแคสต์',
    ],
  },
  {
    terms: 'agency studio',
    words: [
      'agencia', 'agentur', 'agence', 'agenzia', 'агентство', 'студия', '代理公司', '工作室', 'エージェンシー',
      'وكالة', 'एजेंसी', 'เอเจนซี่', 'agensi', 'consulting', 'consultancy', 'consultoria',
      'beratung', 'консалтинг', '咨询', 'コンサル', 'استشارات', 'परामर्श', 'ที่ปรึกษา', 'konsultan',
    ],
  },
  {
    terms: 'marketing',
    words: [
      'marketing', 'маркетинг', '营销', 'マーケティング', 'تسويق', 'मार्केटिंग', 'การตลาด', 'pemasaran',
    ],
  },
  {
    terms: 'event conference festival',
    words: [
      'evento', 'eventos', 'conferencia', 'congreso', 'veranstaltung', 'konferenz', 'evenement',
      'conference', 'мероприяти', 'конференци', 'фестивал', 'событи', '活动', '会议', '大会', '峰会',
      'イベント', 'カンファレンス', 'フェス', 'مؤتمر', 'فعالية', 'مهرجان', 'कार्यक्रम', 'सम्मेलन', 'इवेंट',
      'उत्सव', 'อีเวนต์', 'สัมมนา', 'การประชุม', 'เทศกาล', 'acara', 'konferensi', 'seminar',
      'meetup', 'summit', 'event', 'events', 'festival', 'festivals',
    ],
  },
  {
    terms: 'nonprofit charity donations',
    words: [
      'ong', 'ngo', 'npo', 'sin fines de lucro', 'caridad', 'beneficencia', 'fundacion',
      'donaciones', 'gemeinnutzig', 'spenden', 'caritatif', 'beneficenza', 'благотворительн',
      'некоммерческ', 'фонд', '慈善', '公益', '非营利', '基金会', 'ボランティア', 'خيرية', 'تبرع', 'غير ربحية',
      'चैरिटी', 'दान', 'एनजीओ', 'การกุศล', 'มูลนิธิ', 'บริจาค', 'amal', 'yayasan', 'donasi',
      'nirlaba', 'donation', 'donations', 'fundraising', 'volunteer', 'volunteers', 'charity',
      'charities', 'nonprofit', 'non-profit',
    ],
  },
  {
    terms: 'documentation docs developer',
    words: [
      'documentacion', 'dokumentation', 'documentation', 'документаци', '文档', 'ドキュメント', 'توثيق',
      'وثائق', 'दस्तावेज़', 'डॉक्यूमेंटेशन', 'เอกสาร', 'dokumentasi', 'docs', 'library', 'libreria',
      'библиотек', 'sdk', 'api',
    ],
  },
  {
    terms: 'fitness gym workout',
    words: [
      'gym', 'gimnasio', 'fitnessstudio', 'palestra', 'salle de sport', 'entrenamiento',
      'entrenador', 'тренажерн', 'фитнес', 'спортзал', 'тренер', '健身', 'ジム', 'フィットネス',
      'صالة رياضية', 'لياقة', 'جيم', 'जिम', 'फिटनेस', 'व्यायाम', 'ฟิตเนส', 'ยิม', 'ออกกำลังกาย',
      'gimnasium', 'kebugaran', 'olahraga', 'personal trainer', 'crossfit', 'fitness', 'workout',
      'workouts',
    ],
  },
  {
    terms: 'yoga fitness classes',
    words: [
      'yoga', 'йога', 'йоги', '瑜伽', 'ヨガ', 'يوغا', 'योगा', 'योग स्टूडियो', 'योग कक्षा', 'โยคะ',
      'pilates', 'пилатес', '普拉提', 'ピラティス', 'พิลาทิส',
    ],
  },
  {
    terms: 'beauty salon spa hair',
    words: [
      'salon', 'peluqueria', 'barberia', 'belleza', 'friseur', 'coiffeur', 'parrucchiere',
      'barbearia', 'салон красоты', 'парикмахерск', 'барбершоп', 'красот', 'массаж', '美容', '美发',
      '理发', 'サロン', '美容室', '美容院', 'صالون', 'تجميل', 'حلاق', 'सैलून', 'ब्यूटी', 'स्पा',
      'ร้านเสริมสวย', 'ความงาม', 'สปา', 'ร้านตัดผม', 'kecantikan', 'pangkas rambut', 'barbershop',
      'barber', 'hairdresser', 'nails', 'manicure', 'massage', 'beauty', 'spa',
    ],
  },
  {
    terms: 'real estate property homes apartments',
    words: [
      'inmobiliaria', 'bienes raices', 'propiedades', 'apartamentos', 'alquiler', 'immobilien',
      'immobilier', 'immobiliare', 'imobiliaria', 'недвижимост', 'квартир', 'аренда', 'аренды',
      'риелтор', 'риэлтор', '房地产', '房产', '地产', '租房', '公寓', '不動産', '物件', 'عقارات', 'عقار', 'شقق',
      'रियल एस्टेट', 'प्रॉपर्टी', 'संपत्ति', 'फ्लैट', 'อสังหา', 'คอนโด', 'บ้านเดี่ยว', 'ขายบ้าน',
      'properti', 'apartemen', 'sewa rumah', 'realtor', 'realty', 'property', 'estate agent',
      'real estate',
    ],
  },
  {
    terms: 'architecture architect interior',
    words: [
      'arquitectura', 'arquitecto', 'architektur', 'architecte', 'architetto', 'arquitetura',
      'diseno de interiores', 'interiorismo', 'архитектур', 'архитектор', 'интерьер', '建筑', '室内设计',
      '建築', 'インテリア', 'عمارة', 'معماري', 'تصميم داخلي', 'वास्तुकला', 'आर्किटेक्ट', 'इंटीरियर',
      'สถาปัตยกรรม', 'สถาปนิก', 'ตกแต่งภายใน', 'arsitektur', 'arsitek', 'desain interior',
      'interior', 'architecture', 'architect',
    ],
  },
  {
    terms: 'education school courses learning',
    words: [
      'educacion', 'escuela', 'curso', 'cursos', 'universidad', 'colegio', 'schule', 'kurs',
      'ecole', 'cours', 'scuola', 'corso', 'escola', 'образовани', 'школа', 'школы', 'курсы',
      'курсов', 'обучени', 'университет', '教育', '学校', '课程', '培训', '大学', '在线学习', '塾', '講座', 'تعليم',
      'مدرسة', 'دورة', 'دورات', 'جامعة', 'शिक्षा', 'स्कूल', 'कोर्स', 'पाठ्यक्रम', 'विश्वविद्यालय',
      'ट्यूशन', 'การศึกษา', 'โรงเรียน', 'คอร์ส', 'มหาวิทยาลัย', 'กวดวิชา', 'pendidikan', 'sekolah',
      'kursus', 'universitas', 'bimbel', 'tutoring', 'tutor', 'academy', 'bootcamp', 'school',
      'course', 'courses', 'education', 'university', 'learning',
    ],
  },
  {
    terms: 'travel tours tourism',
    words: [
      'viaje', 'viajes', 'turismo', 'reise', 'reisen', 'voyage', 'voyages', 'viaggio', 'viaggi',
      'viagem', 'путешеств', 'туризм', 'турагентств', 'тур', '旅游', '旅行', '旅行社', '観光', 'سفر',
      'سياحة', 'رحلات', 'यात्रा', 'पर्यटन', 'ट्रैवल', 'ท่องเที่ยว', 'การเดินทาง', 'ทัวร์',
      'perjalanan', 'wisata', 'pariwisata', 'liburan', 'travel', 'tourism', 'trip', 'trips',
      'vacation', 'holiday', 'holidays',
    ],
  },
  {
    terms: 'hotel resort hospitality',
    words: [
      'hotel', 'hoteles', 'hostal', 'alojamiento', 'hotels', 'albergo', 'pousada', 'гостиниц',
      'отель', 'хостел', '酒店', '宾馆', '民宿', '旅馆', 'ホテル', '旅館', 'فندق', 'منتجع', 'होटल', 'रिसॉर्ट',
      'โรงแรม', 'รีสอร์ท', 'penginapan', 'resort', 'hostel', 'guesthouse', 'inn', 'bnb',
    ],
  },
  {
    terms: 'music band musician',
    words: [
      'musica', 'musico', 'banda', 'musik', 'musique', 'музыка', 'музыки', 'музыкант', 'группа',
      'певец', 'певица', '音乐', '乐队', '歌手', '音楽', 'バンド', 'موسيقى', 'فرقة', 'مغني', 'संगीत', 'बैंड',
      'गायक', 'ดนตรี', 'เพลง', 'วงดนตรี', 'นักร้อง', 'penyanyi', 'musician', 'singer', 'dj',
      'record label', 'cantante', 'music', 'band',
    ],
  },
  {
    terms: 'law firm lawyers legal attorneys',
    words: [
      'abogado', 'abogados', 'bufete', 'juridico', 'anwalt', 'kanzlei', 'rechtsanwalt', 'avocat',
      'avocats', 'avvocato', 'advogado', 'advocacia', 'юрист', 'юристы', 'юриста', 'адвокат',
      'юридическ', '律师', '律所', '法律', '弁護士', '法律事務所', 'محامي', 'محاماة', 'قانون', 'वकील', 'कानूनी',
      'लॉ फर्म', 'ทนาย', 'กฎหมาย', 'pengacara', 'advokat', 'hukum', 'lawyer', 'lawyers', 'attorney',
      'attorneys', 'legal', 'law',
    ],
  },
  {
    terms: 'dentist dental medical',
    words: [
      'dentist', 'dentista', 'dental', 'clinica dental', 'zahnarzt', 'dentiste', 'стоматолог',
      'зубной', 'зубная', '牙医', '牙科', '歯医者', '歯科', 'أسنان', 'दंत', 'डेंटिस्ट', 'ทันตแพทย์',
      'หมอฟัน', 'ทำฟัน', 'dokter gigi', 'klinik gigi', 'orthodontist', 'ortodoncia',
    ],
  },
  {
    terms: 'medical health clinic doctor',
    words: [
      'medico', 'medica', 'clinica', 'salud', 'hospital', 'arzt', 'praxis', 'klinik', 'medecin',
      'sante', 'врач', 'врача', 'врачи', 'клиник', 'медицин', 'больниц', 'здоровь', '诊所', '医院',
      '医疗', '医生', '健康', 'クリニック', '病院', '医療', 'طبيب', 'عيادة', 'مستشفى', 'صحة', 'डॉक्टर', 'क्लिनिक',
      'अस्पताल', 'स्वास्थ्य', 'คลินิก', 'โรงพยาบาล', 'แพทย์', 'สุขภาพ', 'dokter', 'rumah sakit',
      'kesehatan', 'doctor', 'clinic', 'medical', 'healthcare', 'therapy', 'therapist',
      'psychologist', 'psicologo', 'terapia', 'психолог', '心理', 'カウンセリング', 'نفسي', 'मनोवैज्ञानिक',
      'นักจิตวิทยา', 'psikolog',
    ],
  },
  {
    terms: 'wedding bridal',
    words: [
      'boda', 'bodas', 'casamiento', 'novia', 'novios', 'hochzeit', 'mariage', 'matrimonio',
      'casamento', 'свадьб', 'свадеб', '婚礼', '结婚', '婚庆', '婚纱', '結婚式', 'ウェディング', 'ブライダル', 'زفاف',
      'عرس', 'शादी', 'विवाह', 'वेडिंग', 'งานแต่ง', 'แต่งงาน', 'เวดดิ้ง', 'pernikahan', 'nikah',
      'bride', 'marriage', 'engagement ring', 'wedding', 'weddings',
    ],
  },
  {
    terms: 'news magazine journalism',
    words: [
      'noticias', 'periodico', 'revista', 'nachrichten', 'zeitung', 'magazin', 'actualites',
      'notizie', 'rivista', 'новост', 'журнал', 'газета', 'газеты', 'сми', '新闻', '杂志', '媒体', 'ニュース',
      '雑誌', 'أخبار', 'مجلة', 'صحيفة', 'समाचार', 'पत्रिका', 'न्यूज़', 'ข่าว', 'นิตยสาร', 'berita',
      'majalah', 'newspaper', 'journalism', 'news', 'magazine',
    ],
  },
  {
    terms: 'finance bank fintech',
    words: [
      'banco', 'finanzas', 'inversion', 'finanzen', 'banque', 'banca', 'банк', 'финанс', 'инвестиц',
      '银行', '金融', '理财', '投资', '銀行', '投資', 'بنك', 'مالية', 'استثمار', 'बैंक', 'वित्त', 'निवेश',
      'ธนาคาร', 'การเงิน', 'ลงทุน', 'keuangan', 'investasi', 'fintech', 'banking', 'investing',
      'finance', 'bank', 'accounting', 'contabilidad', 'бухгалтер', '会计', 'محاسبة', 'akuntansi',
    ],
  },
  {
    terms: 'cars automotive vehicles',
    words: [
      'coche', 'coches', 'carro', 'carros', 'concesionario', 'autohaus', 'voiture', 'automobile',
      'автомобил', 'автосалон', 'машины', 'машин', '汽车', '自動車', 'سيارات', 'سيارة', 'गाड़ी',
      'कार डीलर', 'รถยนต์', 'dealer mobil', 'car', 'cars', 'dealership', 'automotive',
    ],
  },
  {
    terms: 'e-bikes bikes',
    words: [
      'bicicleta', 'bicicletas', 'fahrrad', 'velo', 'велосипед', '自行车', '自転車', 'دراجة', 'साइकिल',
      'จักรยาน', 'sepeda', 'bike', 'bikes', 'cycling',
    ],
  },
  {
    terms: 'gaming games',
    words: [
      'videojuego', 'videojuegos', 'juegos', 'spiele', 'jeux', 'giochi', 'jogos', 'игры', 'игра',
      'игровой', 'игровая', 'геймдев', '游戏', 'ゲーム', 'ألعاب', 'لعبة', 'गेम', 'गेमिंग', 'เกม',
      'esports', 'game', 'games',
    ],
  },
  {
    terms: 'pets dogs veterinary',
    words: [
      'mascota', 'mascotas', 'perro', 'perros', 'gato', 'gatos', 'veterinario', 'veterinaria',
      'haustier', 'tierarzt', 'animaux', 'veterinaire', 'animali', 'питомц', 'животн', 'собак',
      'собаки', 'кошки', 'кошек', 'ветеринар', '宠物', '兽医', 'ペット', '獣医', '動物病院', 'حيوانات أليفة',
      'أليفة', 'بيطري', 'पालतू', 'पशु', 'สัตว์เลี้ยง', 'สัตวแพทย์', 'peliharaan', 'dokter hewan',
      'pet', 'dog', 'dogs', 'cat', 'cats', 'vet',
    ],
  },
  {
    terms: 'florist flowers',
    words: [
      'floristeria', 'floreria', 'flores', 'blumen', 'blumenladen', 'fleuriste', 'fleurs', 'fiori',
      'fioraio', 'floricultura', 'цветы', 'цветов', 'цветоч', 'флорист', '花店', '鲜花', '花屋', 'フラワー',
      'زهور', 'ورود', 'फूल', 'ร้านดอกไม้', 'ดอกไม้', 'bunga', 'toko bunga', 'flower', 'flowers',
      'bouquet',
    ],
  },
];

const UNSEGMENTED_SCRIPT =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Arabic}\p{Script=Devanagari}]/u;

interface Matcher {
  matches(text: string, tokens: readonly string[], joined: string): boolean;
}

function compileWord(raw: string): Matcher {
  const word = normalizeText(raw);
  if (UNSEGMENTED_SCRIPT.test(word)) return { matches: (text) => text.includes(word) };
  const parts = tokenize(word);
  if (parts.length > 1) {
    const phrase = ` ${parts.join(' ')} `;
    return { matches: (_text, _tokens, joined) => joined.includes(phrase) };
  }
  const single = parts[0] ?? word;
  const prefix = single.length >= 6;
  return {
    matches: (_text, tokens) =>
      tokens.some((token) => token === single || (prefix && token.startsWith(single))),
  };
}

const COMPILED = CONCEPTS.map((concept) => ({
  terms: concept.terms.split(' '),
  matchers: concept.words.map(compileWord),
}));

/** English catalogue words for the concepts an idea mentions, in any of the languages above. */
export function expandIdea(idea: string): string[] {
  const text = normalizeText(idea);
  const tokens = tokenize(idea);
  const joined = ` ${tokens.join(' ')} `;
  const terms = new Set<string>();
  for (const concept of COMPILED) {
    if (concept.matchers.some((m) => m.matches(text, tokens, joined))) {
      for (const term of concept.terms) terms.add(term);
    }
  }
  return [...terms];
}
