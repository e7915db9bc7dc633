// Prototype: score each input line (UTF-8, Han characters) with libime's zh_CN word LM.
// Best segmentation by beam DP; prints total log10 and per-character, and the words.
#include <libime/core/languagemodel.h>
namespace libime { class WordNode { public: WordNode(std::string_view word, WordIndex idx) : word_(word), idx_(idx) {} virtual ~WordNode() = default; const std::string &word() const { return word_; } WordIndex idx() const { return idx_; } protected: std::string word_; WordIndex idx_; }; }
#include <iostream>
#include <string>
#include <vector>
#include <algorithm>
using namespace libime;
static std::vector<std::string> chars(const std::string& s){
  std::vector<std::string> out; for(size_t i=0;i<s.size();){unsigned char c=s[i];size_t n=c<0x80?1:c<0xE0?2:c<0xF0?3:4;out.push_back(s.substr(i,n));i+=n;} return out;}
struct Hyp{ State st; float score; std::vector<std::string> words; int unk; };
int main(int argc,char**argv){
  LanguageModel lm("/usr/lib/x86_64-linux-gnu/libime/zh_CN.lm");
  std::string line;
  while(std::getline(std::cin,line)){
    auto cs=chars(line); size_t n=cs.size();
    std::vector<std::vector<Hyp>> beam(n+1);
    beam[0].push_back({lm.beginState(),0,{},0});
    for(size_t i=0;i<n;++i){
      auto& hs=beam[i]; std::sort(hs.begin(),hs.end(),[](auto&a,auto&b){return a.score>b.score;}); if(hs.size()>8) hs.resize(8);
      for(auto& h:hs) for(size_t L=1;L<=4&&i+L<=n;++L){
        std::string w; for(size_t k=i;k<i+L;++k) w+=cs[k];
        WordIndex idx=lm.index(w);
        bool unk=lm.isUnknown(idx,w);
        if(unk && L>1) continue;
        WordNode node(w,idx); State out; float s=lm.score(h.st,node,out);
        Hyp nh{out,h.score+s,h.words,h.unk+(unk?1:0)}; nh.words.push_back(w); beam[i+L].push_back(nh);
      }
    }
    auto& hs=beam[n]; float best=-1e9; const Hyp* bh=nullptr;
    for(auto& h:hs){ WordNode e("</s>",lm.endSentence()); State o; float s=h.score+lm.score(h.st,e,o); if(s>best){best=s;bh=&h;} }
    std::cout<<best<<"\t"<<(n?best/n:0)<<"\t"<<(bh?bh->unk:0)<<"\t";
    if(bh) for(auto&w:bh->words) std::cout<<w<<"/"; std::cout<<"\n";
  }
}
