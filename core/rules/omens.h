#pragma once

#include <array>
#include <string_view>

namespace couplet {

// Words of mourning and misfortune that a 春联 never writes (挽联 do: death,
// funerals, graves, weeping, prison). The model learned them from the whole
// couplet corpus, and writes 死心 or 无常 in a New Year line now and then; the
// constraints keep them out of what it writes. A user's own 上联, keywords and
// 藏头 characters are theirs to choose and are not filtered.
inline constexpr std::u32string_view kOmenCharacters = U"死丧亡殡葬棺坟墓尸鬼哭泣殇悼逝杀囚狱惨冥";

// Two-character words whose characters are fine alone (无 and 常, 离 and 世):
// the second is not written right after the first in the same line.
inline constexpr std::array<std::u32string_view, 17> kOmenWords = {
    U"无常", U"归西", U"西归", U"永别", U"长眠", U"安息", U"断肠", U"驾鹤", U"作古",
    U"诀别", U"离世", U"辞世", U"去世", U"过世", U"归天", U"黄泉", U"寿终",
};

} // namespace couplet
