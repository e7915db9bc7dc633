import random, sys, json, os
# Paths are relative to this folder: the repository is three levels up, the data in ../shared next to it.
HERE=os.path.dirname(os.path.abspath(__file__))
REPO=os.path.normpath(os.path.join(HERE,'..','..','..'))
SHARED=os.environ.get('COUPLET_SHARED_DIR',os.path.join(REPO,'..','shared'))
# usage: mksheet.py OUTDIR name=file[:kind] ...   kind: rerank|raw ; controls added automatically
prompts=[l.rstrip('\n').split('\t') for l in open(os.path.join(HERE,'prompts.tsv')) if not l.startswith('#')]
festive=set('春福喜岁年吉祥瑞财旺兴庆贺迎门户家新禧乐康安泰丰盛龙蛇马羊猴鸡狗猪鼠牛虎兔燕梅')
modern=[l.rstrip('\n').split('\t') for l in open(os.path.join(SHARED,'data','couplets','modern.tsv'))]
core=set('春福喜岁吉祥瑞财旺庆贺迎新禧泰丰盛寿康安乐兴')
# --strict (sheet B): controls also free of melancholy characters, ending 仄/平, without repeats.
strict='--strict' in sys.argv
if strict: sys.argv.remove('--strict')
tone={}
for l in open(os.path.join(REPO,'resources','models','default','tones.tsv')):
    a=l.rstrip('\n').split('\t')
    if len(a)==2: tone[a[0]]=a[1]
sad=set('秋暮愁瘦幽孤寒残落泪别老病死哀悲苦贫冷空寂梦酒醉')
def good(p):
    s=p[0]+p[1]
    if not (len(p)==2 and '，' not in p[0] and sum(c in core for c in s)>=3 and not any(c in '鼠牛虎兔龙蛇马猴鸡狗猪' for c in s)):
        return False
    return not strict or (not any(c in sad for c in s) and tone.get(p[0][-1])=='Z' and tone.get(p[1][-1])=='P'
                          and len(set(p[0]))>=len(p[0])-1 and len(set(p[1]))>=len(p[1])-1)
modern=[p for p in modern if good(p)]
def han(s): return sum(1 for c in s if '\u4e00'<=c<='\u9fff')
def request(mode,text,length):
    if mode=='keywords': return f"关键词 {text}，{length}字" if length!='0' else f"关键词 {text}"
    if mode=='upper': return f"给定上联 {text}，对下联"
    return f"藏头 {text}（上联首字{text[0]}，下联首字{text[1]}），{length}字"
def controls(seed=20261206):
    rng=random.Random(seed); out=[]
    for g,mode,text,length in prompts:
        if mode=='keywords':
            kws=text.split(); L=int(length)
            c=[p for p in modern if all(k in p[0]+p[1] for k in kws) and len(p[0])==L]
            if c: p=rng.choice(c); out.append((request(mode,text,length),p[0],p[1]))
        elif mode=='acrostic':
            L=int(length); c=[p for p in modern if p[0][0]==text[0] and p[1][0]==text[1] and len(p[0])==L]
            if c: p=rng.choice(c); out.append((request(mode,text,length),p[0],p[1]))
    ups=[p for p in modern if len(p[0]) in (5,7)]
    for p in rng.sample(ups,12): out.append((request('upper',p[0],'0'),p[0],p[1]))
    return out
def read_out(path):
    rows=[]; i=0; per={}
    for l in open(path):
        parts=l.rstrip('\n').split('\t')
        if len(parts)!=3 or ' / ' not in parts[2]: continue
        g,text,c=parts
        up,lo,hp=(c.split(' / ')+['',''])[:3]
        rows.append((g,text,up,lo,hp))
    return rows
if __name__=='__main__':
    outdir=sys.argv[1]; seed=int(sys.argv[2]); specs=sys.argv[3:]
    pm={(p[0],p[2]):p for p in prompts}
    items=[]
    for s in specs:
        name,path=s.split('=')
        for g,text,up,lo,hp in read_out(path):
            p=pm[(g,text)]
            items.append(dict(source=name,request=request(p[1],p[2],p[3]),upper=up,lower=lo,hengpi=hp,group=g))
    for r,u,l in controls():
        items.append(dict(source='control',request=r,upper=u,lower=l,hengpi='',group='control'))
    rng=random.Random(seed); rng.shuffle(items)
    with open(f'{outdir}/sheet.md','w') as f:
        f.write('| id | request | 上联 | 下联 |\n|---|---|---|---|\n')
        for i,it in enumerate(items,1): f.write(f"| {i} | {it['request']} | {it['upper']} | {it['lower']} |\n")
    hp=[(i,it) for i,it in enumerate(items,1) if it['hengpi']]
    with open(f'{outdir}/hengpi-sheet.md','w') as f:
        f.write('| id | request | 上联 | 下联 | 横批 |\n|---|---|---|---|---|\n')
        for i,it in hp: f.write(f"| {i} | {it['request']} | {it['upper']} | {it['lower']} | {it['hengpi']} |\n")
    json.dump(items,open(f'{outdir}/key.json','w'),ensure_ascii=False,indent=0)
    from collections import Counter; print(len(items),Counter(i['source'] for i in items))
