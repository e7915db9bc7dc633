#include "occasion.h"

#include <array>

namespace couplet {
namespace {

struct Cues {
    unsigned bit;
    std::string_view name;
    // Space-separated words; a prompt holding any one speaks of the occasion.
    std::u32string_view words;
};

// Single characters only where they carry the occasion on their own (婚, 医);
// 财 and 福 are every household's wish, so they are no cue of a shop.
constexpr std::array<Cues, kOccasionCount> kCues = {{
    {kOccasionWedding, "wedding", U"婚 嫁 娶 姻 新娘 新郎 洞房 花烛 喜结 良缘 连理 伉俪 鸳鸯 佳偶 永结 好合 偕老 并蒂 比翼 琴瑟"},
    {kOccasionBusiness, "business",
     U"开业 开张 开市 生意 商 店 铺 公司 企业 经营 买卖 营业 贸易 酒楼 饭庄 餐厅 超市 客户 老板 厂"},
    {kOccasionMoving, "moving", U"乔迁 迁居 新居 新宅 新屋 入宅 入住 搬家 安居 新房 落成"},
    {kOccasionHealth, "health", U"医 病 药 康复 护士 诊 杏林 悬壶 仁心 济世 卫生"},
    {kOccasionSchool, "school", U"教 师 学 校 考 园丁 桃李 升学 金榜 状元 书院 育人 读书 高考 毕业"},
    {kOccasionFarming, "farming", U"农 耕 田 丰收 丰登 五谷 粮 稻 麦 牧 养殖 乡村 村 果园 菜园 渔"},
    {kOccasionTechnology, "technology", U"科技 科学 网 数据 智能 芯 电脑 软件 程序 创新 航天 机器 算力 数字 信息"},
}};

bool holdsAnyWord(std::u32string_view prompt, std::u32string_view words)
{
    for (std::size_t at = 0; at < words.size();) {
        std::size_t end = words.find(U' ', at);
        if (end == std::u32string_view::npos) end = words.size();
        if (end > at && prompt.find(words.substr(at, end - at)) != std::u32string_view::npos) return true;
        at = end + 1;
    }
    return false;
}

} // namespace

unsigned occasionsOf(std::u32string_view prompt)
{
    unsigned out = 0;
    for (const Cues& c : kCues)
        if (holdsAnyWord(prompt, c.words)) out |= c.bit;
    return out;
}

std::string_view occasionName(unsigned bit)
{
    if (bit == kOccasionShared) return "any";
    for (const Cues& c : kCues)
        if (c.bit == bit) return c.name;
    return {};
}

std::optional<unsigned> occasionNamed(std::string_view name)
{
    if (name == "any") return kOccasionShared;
    for (const Cues& c : kCues)
        if (c.name == name) return c.bit;
    return std::nullopt;
}

} // namespace couplet
