#include "hengpi_list.h"

#include "occasion.h"
#include "utf8.h"
#include "vocab.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>

namespace couplet {
namespace {

// Stock 横批 hung over doors at the Spring Festival.
constexpr std::u32string_view kStockPhrases =
    U"五福临门 万象更新 辞旧迎新 国泰民安 吉星高照 春回大地 福满人间 喜迎新春 春满人间 四季平安 "
    U"万事如意 吉祥如意 恭贺新禧 新春大吉 大吉大利 岁岁平安 年年有余 招财进宝 财源广进 生意兴隆 "
    U"财源茂盛 八方来财 日进斗金 和气生财 心想事成 阖家欢乐 合家欢乐 家和业兴 幸福美满 福寿安康 "
    U"健康长寿 福如东海 寿比南山 春色满园 春意盎然 鸟语花香 花好月圆 百年好合 龙凤呈祥 喜结良缘 "
    U"永结同心 天作之合 金玉满堂 紫气东来 三阳开泰 六畜兴旺 五谷丰登 风调雨顺 人寿年丰 国富民强 "
    U"繁荣昌盛 欣欣向荣 蒸蒸日上 鹏程万里 前程似锦 步步高升 大展宏图 马到成功 龙马精神 龙腾虎跃 "
    U"龙年大吉 金龙献瑞 瑞雪丰年 春和景明 万紫千红 锦绣前程 喜气盈门 福星高照 吉庆有余 满院春光 "
    U"春光明媚 春风得意 春华秋实 春暖花开 旭日东升 紫气盈门 安居乐业 人杰地灵 物阜民丰 政通人和 "
    U"河清海晏 普天同庆 举国同庆 欢度春节 喜庆有余 福寿双全 金玉良缘 美满姻缘 双喜临门 好事成双 "
    U"喜气洋洋 欢天喜地 书香门第 耕读传家 勤俭持家 积善之家 德泽流芳 诗书继世 学业有成 金榜题名 "
    U"桃李芬芳 天道酬勤 厚德载物 宏图大展 事业兴旺 吉祥安康 出入平安 一帆风顺 万事顺意 百业兴旺 "
    U"千祥云集 万户春风 迎春接福 春归大地 江山多娇 山河壮丽 盛世中华 大地回春 春满神州 花开富贵 "
    U"富贵吉祥 竹报平安 岁岁有余 年丰人寿 九州同庆 万民同乐 春意融融 蛇年大吉 马年大吉 羊年吉祥 "
    U"猴年大吉 鸡年大吉 猪年大吉 鼠年吉祥 牛年大吉 虎年吉祥 兔年大吉 龙年吉祥 春回人间 福临门第 "
    U"羊年大吉 阖家团圆 合家团圆 团圆美满 平安如意 和顺满门 福寿康宁";

// 横批 of one occasion, hung only over its couplets (occasion.h), and the
// wedding phrases of the stock list above, which are hung only over a
// wedding's: 金玉良缘 over a household's spring couplet reads as a slip.
struct OccasionPhrases {
    unsigned occasion;
    std::u32string_view phrases;
};
constexpr OccasionPhrases kOccasionPhrases[] = {
    {kOccasionWedding, U"百年好合 龙凤呈祥 喜结良缘 永结同心 天作之合 金玉良缘 美满姻缘 双喜临门 好事成双 花好月圆 "
                       U"佳偶天成 珠联璧合 鸾凤和鸣 琴瑟和鸣 白头偕老 比翼双飞 心心相印 喜结连理 月圆花好 郎才女貌 "
                       U"夫贵妻荣 金童玉女"},
    {kOccasionBusiness, U"开业大吉 开张大吉 开市大吉 生意兴隆 财源广进 财源茂盛 八方来财 日进斗金 和气生财 宏图大展 "
                        U"大展宏图 鸿图大展 客似云来 货真价实 童叟无欺 诚信为本 财运亨通 百业兴旺 事业兴旺"},
    {kOccasionMoving, U"乔迁之喜 乔迁大吉 喜迁新居 新居吉庆 安居乐业 乐业安居 华堂焕彩 福地安居 莺迁乔木 堂构更新 "
                      U"安家乐业 安家立业 美轮美奂 金碧辉煌"},
    {kOccasionHealth, U"妙手回春 杏林春暖 悬壶济世 济世活人 仁心仁术 大医精诚 救死扶伤"},
    {kOccasionSchool, U"桃李芬芳 桃李满园 桃李天下 学业有成 金榜题名 春风化雨 教书育人 诲人不倦 学海无涯 书香门第 "
                      U"诗书继世 书香人家 书香世家 天道酬勤 前程似锦 鹏程万里"},
    {kOccasionFarming, U"五谷丰登 六畜兴旺 风调雨顺 人寿年丰 年丰人寿 丰收在望 瑞雪丰年 耕读传家 岁稔年丰 物阜民丰"},
    {kOccasionTechnology, U"科教兴国 科技兴国 日新月异 与时俱进 开拓创新 继往开来 繁荣富强 欣欣向荣 蒸蒸日上 大展宏图"},
};

// Occasion phrases that every household hangs at the Spring Festival too
// (五谷丰登 over a farmhouse's door and over any other): favoured for their
// occasion, allowed for all.
constexpr std::u32string_view kSharedOccasionPhrases =
    U"五谷丰登 六畜兴旺 风调雨顺 人寿年丰 年丰人寿 瑞雪丰年 耕读传家 物阜民丰 书香门第 诗书继世 天道酬勤 前程似锦 "
    U"鹏程万里 安居乐业 乐业安居 继往开来 繁荣富强 欣欣向荣 蒸蒸日上 大展宏图 "
    U"宏图大展 百业兴旺 事业兴旺 财源广进 财源茂盛 和气生财";

// Idioms of the dictionaries that pass the festive-character test but are
// no blessing over a door: greed, treason, flattery, philandering, a
// beauty's death, empty show, plain description, a maxim or advice (金玉良言,
// 克勤克俭), a farewell (一路平安), a slogan (发家致富), autumn (春花秋月), or
// harmony kept for show (一团和气), or self-praise (医德高尚).
constexpr std::u32string_view kNotHengpi =
    U"爱财如命 里通外国 卖国求荣 民膏民脂 民脂民膏 花花公子 攀龙附凤 喜新厌旧 香消玉殒 绣花枕头 寻欢作乐 男欢女爱 "
    U"欢喜冤家 曲意迎合 明日黄花 满打满算 满坑满谷 国而忘家 红白喜事 富贵逼人 达官贵人 升官发财 怜香惜玉 香草美人 "
    U"大家闺秀 小家碧玉 明眸善睐 如花似玉 金枝玉叶 平起平坐 合情合理 公平合理 通宵达旦 通力合作 一通百通 四通八达 "
    U"憎爱分明 爱憎分明 以德报德 知恩报恩 民贵君轻 和光同尘 羽毛丰满 花样翻新 热气腾腾 明明白白 花花绿绿 花花世界 "
    U"安安稳稳 勤勤恳恳 满面红光 金科玉律 金口玉言 珠光宝气 富丽堂皇 堂皇富丽 雕龙画凤 爱民如子 拥政爱民 新人新事 "
    U"喜闻乐见 丰富多彩 光明正大 正大光明 善始善终 善有善报 仁民爱物 俭以养德 锦衣玉食 宝马香车 香车宝马 功名富贵 "
    U"国计民生 齐家治国 治国安邦 治国安民 安邦治国 安邦定国 定国安邦 保家卫国 为国为民 民生在勤 民富国强 国色天香 "
    U"金玉良言 克勤克俭 家家户户 一路平安 发家致富 发财致富 白手兴家 从善如登 大恩大德 感恩戴德 国家栋梁 积善成德 "
    U"通情达理 心平气和 万贯家财 披红戴花 春花秋月 光彩夺目 奇光异彩 济世安民 富国强民 功德圆满 龙飞凤舞 金声玉振 "
    U"好善乐施 乐善好施 一团和气 医德高尚";

constexpr std::u32string_view kAuspicious =
    U"福春喜吉祥瑞安康泰宁和顺兴旺盛昌隆荣华富贵财丰乐庆寿禄德美满新欢禧祺鸿辉锦绣圆祝贺迎龙凤金玉宝"
    U"平盈嘉恒腾升达通登光明花丽秀团合家国民勤俭孝善爱恩香彩红";
// Characters of ill omen that no door should carry.
constexpr std::u32string_view kInauspicious =
    U"死亡丧哀悲苦病灾祸凶恶鬼败失穷贫孤寡残破毒杀伤痛泪愁忧怨恨惨衰落废断绝离散乱危险暴狂骂贼盗奸诈淫"
    U"邪魔妖怪血哭惧怕罪罚刑狱囚耻辱欺骗懒愚蠢昏迷虚假空无不莫非未否难困累疲倦贪骄奢傲争斗战兵戈仇敌逃"
    U"荒末尽溃诛屠狗猪鼠蚁蝇粪尸墓坟葬叹弃冷寒孽劫暗黑害患";
// Too common to signal a theme.
constexpr std::u32string_view kFiller = U"一人大年之以而其为有天地";

bool hasAny(std::u32string_view text, std::u32string_view set)
{
    return std::any_of(text.begin(), text.end(), [&](char32_t c) { return set.find(c) != std::u32string_view::npos; });
}

int countIn(std::u32string_view text, std::u32string_view set)
{
    return static_cast<int>(std::count_if(text.begin(), text.end(),
                                          [&](char32_t c) { return set.find(c) != std::u32string_view::npos; }));
}

// "wedding,business" -> their bits; "" -> 0.
unsigned parseOccasions(const std::string& names)
{
    unsigned out = 0;
    std::istringstream in(names);
    std::string name;
    while (std::getline(in, name, ',')) {
        name.erase(name.find_last_not_of(" \r") + 1);
        if (name.empty()) continue;
        const auto bit = occasionNamed(name);
        if (!bit) throw std::invalid_argument("unknown occasion '" + name + "'");
        out |= *bit;
    }
    return out;
}

std::map<std::u32string, long> readFrequencies(const std::filesystem::path& path)
{
    std::map<std::u32string, long> freq;
    std::ifstream in(path);
    std::string line;
    while (std::getline(in, line)) {
        const auto tab = line.find('\t');
        if (tab == std::string::npos) continue;
        std::string word = line.substr(0, tab);
        word.erase(word.find_last_not_of(" \r") + 1);
        try {
            freq[utf8::decode(word)] = std::stol(line.substr(tab + 1));
        } catch (const std::exception&) {
            continue; // a malformed line of the frequency list only loses its weight
        }
    }
    return freq;
}

} // namespace

void HengpiList::add(const std::u32string& text, double weight, bool stock, unsigned occasions)
{
    for (auto& p : m_phrases)
        if (p.text == text) {
            p.weight = std::max(p.weight, weight);
            p.stock = p.stock || stock;
            p.occasions |= occasions;
            return;
        }
    m_phrases.push_back({text, weight, stock, occasions});
}

void HengpiList::addOccasionPhrases()
{
    for (const auto& [occasion, phrases] : kOccasionPhrases)
        for (std::size_t i = 0; i + 4 <= phrases.size(); i += 5) add(std::u32string(phrases.substr(i, 4)), 10.0, true, occasion);
    for (auto& p : m_phrases)
        if (kSharedOccasionPhrases.find(p.text) != std::u32string_view::npos) p.occasions |= kOccasionShared;
    std::erase_if(m_phrases, [](const Phrase& p) { return kNotHengpi.find(p.text) != std::u32string_view::npos; });
}

HengpiList HengpiList::fromIdioms(const std::filesystem::path& idiomsDir)
{
    HengpiList list;
    std::u32string stock(kStockPhrases);
    for (std::size_t i = 0; i + 4 <= stock.size(); i += 5) list.add(stock.substr(i, 4), 10.0, true);

    const auto freq = readFrequencies(idiomsDir / "thuocl-chengyu.tsv");
    std::ifstream in(idiomsDir / "idioms-pinyin.json");
    if (!in) throw std::runtime_error("cannot open " + (idiomsDir / "idioms-pinyin.json").string());
    const auto idioms = nlohmann::json::parse(in);
    for (const auto& item : idioms) {
        const auto word = utf8::decode(item.value("word", std::string()));
        if (word.size() != 4 || hasAny(word, kInauspicious)) continue;
        // Two festive characters, and common enough to be recognised.
        const auto it = freq.find(word);
        if (countIn(word, kAuspicious) < 2 || it == freq.end() || it->second < 20) continue;
        list.add(word, std::log10(static_cast<double>(it->second)), false);
    }
    list.addOccasionPhrases();
    list.index();
    return list;
}

HengpiList HengpiList::load(const std::filesystem::path& path)
{
    std::ifstream in(path);
    if (!in) throw std::runtime_error("cannot open " + path.string());
    HengpiList list;
    std::string line;
    int lineNo = 0;
    while (std::getline(in, line)) {
        ++lineNo;
        std::istringstream fields(line);
        std::string text, weight, kind, occasionNames;
        std::getline(fields, text, '\t');
        std::getline(fields, weight, '\t');
        std::getline(fields, kind, '\t');
        std::getline(fields, occasionNames, '\t');
        std::u32string cps;
        try {
            cps = utf8::decode(text);
            if (cps.size() != 4) throw std::invalid_argument("not four characters");
            list.m_phrases.push_back({cps, std::stod(weight), kind == "stock", parseOccasions(occasionNames)});
        } catch (const std::exception& e) {
            throw std::runtime_error(path.string() + ": line " + std::to_string(lineNo) + ": " + e.what());
        }
    }
    list.index();
    return list;
}

void HengpiList::save(const std::filesystem::path& path) const
{
    std::ofstream out(path);
    if (!out) throw std::runtime_error("cannot write " + path.string());
    for (const auto& p : m_phrases) {
        out << utf8::encode(p.text) << '\t' << p.weight << '\t' << (p.stock ? "stock" : "idiom");
        std::string names;
        for (unsigned bit = 1; bit <= kOccasionShared; bit <<= 1)
            if (p.occasions & bit) {
                if (!names.empty()) names += ',';
                names += occasionName(bit);
            }
        if (!names.empty()) out << '\t' << names;
        out << '\n';
    }
}

void HengpiList::index()
{
    m_byChar.clear();
    for (int i = 0; i < static_cast<int>(m_phrases.size()); ++i)
        for (char32_t c : m_phrases[i].text) {
            auto& v = m_byChar[c];
            if (v.empty() || v.back() != i) v.push_back(i);
        }
}

void HengpiList::restrictTo(const Vocab& vocab)
{
    std::erase_if(m_phrases, [&](const Phrase& p) {
        return std::any_of(p.text.begin(), p.text.end(), [&](char32_t c) { return !vocab.contains(c); });
    });
    index();
}

std::vector<int> HengpiList::related(const std::u32string& text, std::size_t limit) const
{
    std::map<int, int> shared; // phrase -> distinct characters in common
    std::u32string seen;
    for (char32_t c : text) {
        if (seen.find(c) != std::u32string::npos || kFiller.find(c) != std::u32string_view::npos) continue;
        seen.push_back(c);
        const auto it = m_byChar.find(c);
        if (it == m_byChar.end()) continue;
        for (int p : it->second) ++shared[p];
    }
    std::vector<std::pair<double, int>> scored;
    for (const auto& [p, n] : shared)
        scored.push_back({n * 2.0 + (m_phrases[p].stock ? 1.5 : 0.0) + 0.2 * m_phrases[p].weight, p});
    std::sort(scored.begin(), scored.end(), std::greater<>());
    std::vector<int> out;
    for (std::size_t i = 0; i < scored.size() && i < limit; ++i) out.push_back(scored[i].second);
    return out;
}

} // namespace couplet
