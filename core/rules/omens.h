#pragma once

#include <array>
#include <string_view>

namespace couplet {

// Words of mourning and misfortune that a 春联 never writes (挽联 do: death,
// funerals, graves, weeping, prison), and of sorrow (愁, 怨, 孤, 泪, 痴, 悔), which
// turn a blessing into a lament (平安多是梦 / 远树少知音 is a poem, not a 春联;
// 万事如意终有悔 and 喜结良缘终不悔 came out). The model learned them from the whole
// couplet corpus, and writes 死心 or 无常 in a New Year line now and then; the
// constraints keep them out of what it writes. A user's own 上联, keywords and
// 藏头 characters are theirs to choose and are not filtered.
inline constexpr std::u32string_view kOmenCharacters = U"死丧亡殡葬棺坟墓尸鬼哭泣殇悼逝杀囚狱惨冥愁怨恨孤寂残泪悲哀痴悔";

// Two-character words whose characters are fine alone (无 and 常, 离 and 世):
// the second is not written right after the first in the same line. Besides
// death: heartlessness and broken bonds (无情, 无缘, 离别: 欣开好梦福无情 came
// out for a wedding), ill fortune (薄命, 落魄, 末路), spring passing (落红),
// a shop's failure (破产, 倒闭, 亏本), life as a dream (若梦, 如梦, 是梦: 一生若梦竟无涯
// under 万事如意), high summer in a spring couplet (盛夏, 夏来, 蛙声: 新荷弄影蛙声脆), the end
// of days and a waning moon (末世, 月缺: 平安如故事 / 末世若浮名, 团圆月缺花千点), want (贫寒,
// 清贫), and a church's word (福音: 瑞气欣盈大福音). Blind judges (sheet J, 2026-12-06) also
// refused age and want (老去乔迁新居乐 / 贫来富贵旧时欢), a blessing denied (喜结良缘无益友,
// 平安能几日, 不安, 不顺, 无福 ...), the world's fickleness (世态炎凉), 红杏出墙 and satire
// (求学业方能进步 / 做官事未必修身).
inline constexpr std::array<std::u32string_view, 67> kOmenWords = {
    U"无常", U"归西", U"西归", U"永别", U"长眠", U"安息", U"断肠", U"驾鹤", U"作古", U"诀别", U"离世",
    U"辞世", U"去世", U"过世", U"归天", U"黄泉", U"寿终", U"无情", U"无缘", U"离别", U"别离", U"薄命",
    U"短命", U"落魄", U"末路", U"穷途", U"凄凉", U"落红", U"破产", U"倒闭", U"亏本", U"赔本", U"若梦",
    U"如梦", U"是梦", U"盛夏", U"初夏", U"炎夏", U"夏日", U"夏来", U"蛙声", U"蝉鸣", U"鸣蝉", U"末世",
    U"月缺", U"缺月", U"贫寒", U"清贫", U"福音", U"老去", U"贫来", U"无益", U"炎凉", U"出墙", U"未必",
    U"能几", U"不吉", U"不安", U"不顺", U"不宁", U"不和", U"失和", U"无福", U"少福", U"不乐", U"无财",
    U"不富",
};

// A 春联 answers 春 with 福, 喜, 岁 ..., not with summer: 春到人间花似锦 /
// 夏来世上草如茵 and 读春句 / 写夏篇 are poems of the seasons. Each pair is a
// 上联 character and the 下联 character not written facing it (华夏 stays).
inline constexpr std::array<std::u32string_view, 1> kOffSeasonMirrors = {U"春夏"};

// Characters a line may double (叠字: 年年, 处处, 声声, 家家): those doubled at
// least 30 times in the modern couplets of ../shared/data (Apache-2.0) or
// doubled as a word of jieba's dictionary (MIT; not a name, at least 50 in
// its count), less doubled sorrow (寂寂, 萧萧, 茫茫). Others read as a stutter
// (财源广进财财旺, 千家富贵贵民心): the 上联 does not double them, and the
// 下联 doubles only where the 上联 does.
inline constexpr std::u32string_view kReduplicable =
    U"一万个久乖九事人仅伸侃偏做偷光公出刚刷匆区单历厚双叔句可听呵呼哼嚷团圆圈坐堂声处多大天太头奶好妈妹姐姑姥娃娘婆嫂字学家寥对小尝层屡山岁峰巍师帮常平年开弟弯往微快念恰悄悠想愤慢户打抱拍指挤换摆摇摸救敲整斑日早时明暗最月望朝"
    U"本朵村条某查样格框款歇步每汹泛泡洋洗活淡深渐源滔滚满漫潺灼炎炯点熠爷爹片牢狠猜猩玩画略痒盈看真瞧短碰种稍空笑等算篇簌粗糊紧累纷组细统绵缓缕翩翻聊脉舅花苍草莽融行袅见讲试谈走足转软轻远连迟通逛遥郁重铮长闪问阵隐频飒飘馍高默";

// Years of animals that are not in the cycle: asked for 龙年, the model
// mirrors 龙 with 凤 and 年 with 岁, and writes 凤岁, a phoenix year no
// calendar has. 鹤年 and 龟年 (long life, 龟年鹤寿) are real words and stay.
// Where the 上联 names its year (龙年, 马岁), the model answers the animal
// with another creature whatever follows (凤日, 鹿岁, 狮日, 福鸭岁): there the
// 下联 takes one of kYearMirrors instead (龙年 / 春日, 羊年 / 福岁), the words
// a couplet answers a year with.
inline constexpr std::array<std::u32string_view, 14> kFalseYearWords = {
    U"凤岁", U"凤年", U"燕岁", U"燕年", U"鹏岁", U"鹏年", U"鸿岁",
    U"鸿年", U"麟岁", U"麟年", U"鹊岁", U"鹊年", U"莺岁", U"莺年",
};
inline constexpr std::u32string_view kYearMirrors = U"春福喜盛华新瑞吉丰安乐祥昌泰";
// What follows an animal to name the year (龙年, 马岁).
inline constexpr std::u32string_view kYearWords = U"年岁";

} // namespace couplet
