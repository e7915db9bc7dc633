import json, re, sys
from collections import defaultdict
key=json.load(open(sys.argv[1]))
def parse(path):
    couplet={}; hp={}; cur=couplet; seen_ids=set()
    for l in open(path):
        m=re.match(r'\|\s*(\d+)\s*\|\s*([✓✗])\s*\|(.*)\|',l)
        if m:
            i=int(m.group(1))
            if i in couplet and cur is couplet: cur=hp
            if cur is couplet and couplet and i < max(couplet) and len(couplet)>=len(key): cur=hp
            cur[i]=(m.group(2)=='✓', m.group(3).strip())
        elif '横批' in l and couplet: cur=hp
    return couplet,hp
for path in sys.argv[2:]:
    c,h=parse(path)
    agg=defaultdict(lambda:[0,0]); aggh=defaultdict(lambda:[0,0])
    for i,it in enumerate(key,1):
        if i not in c: continue
        src=it['source']; grp=it['group'] if src!='control' else 'control'
        mode = 'control' if src=='control' else ({'keywords':'keywords','themes':'keywords','occasions':'keywords','nine':'keywords','upper':'upper','acrostic':'acrostic','names':'acrostic'}[grp])
        for k in (src, f'{src} mode:{mode}', f'{src} group:{grp}'):
            agg[k][0]+=c[i][0]; agg[k][1]+=1
        if i in h: aggh[src][0]+=h[i][0]; aggh[src][1]+=1
    print(path, 'couplets judged', len(c), 'hengpi', len(h))
    for k in sorted(agg): print(f'  {k:24s} {agg[k][0]}/{agg[k][1]} = {100*agg[k][0]/agg[k][1]:.0f}%')
    for k in sorted(aggh): print(f'  横批 {k:19s} {aggh[k][0]}/{aggh[k][1]} = {100*aggh[k][0]/aggh[k][1]:.0f}%')
