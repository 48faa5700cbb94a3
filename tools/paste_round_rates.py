#!/usr/bin/env python3
"""A round of holdout pastes (tests/fixtures/pastes/holdout-N/) measured by its README's table:

    tools/paste_round_rates.py BIN tests/fixtures/pastes/holdout-11 [FILE=ID ...]

Each file is run as `gpudoctor check --json --from FILE` (PATH=/usr/bin:/bin, LC_ALL=C). A paste
counts as named when the table's expected id is among its warn/fail findings; `none yet` is a
miss; a healthy paste is right when nothing fails. FILE=ID replaces a row's expected id (the
in-sample rows listed `none yet` that later got an id, which the README says). Prints a line per
file and the in-sample and holdout rates apart.
"""
import json,re,subprocess,sys,os
BIN,D=sys.argv[1],sys.argv[2]
rel=dict(a.split('=',1) for a in sys.argv[3:])
rows=[]
for line in open(os.path.join(D,'README.md')):
    m=re.match(r'\| `([^`]+\.txt)`( \(holdout\))? \| (\S+) \| (.*?) \| (.*?) \|',line)
    if m: rows.append((m.group(1),bool(m.group(2)),m.group(5).strip()))
res={'in':[0,0],'ho':[0,0]}; hfail=[0,0]
for f,ho,exp in rows:
    exp=rel.get(f,exp)
    out=subprocess.run(['env','-i','PATH=/usr/bin:/bin','LC_ALL=C','HOME=/tmp',BIN,'check','--json','--from',os.path.join(D,f)],capture_output=True,text=True).stdout
    try: fs=[(x['id'],x['severity']) for x in json.loads(out)['findings']]
    except Exception: fs=None
    fails=[i for i,s in (fs or []) if s=='fail']; hits=[i for i,s in (fs or []) if s in('warn','fail')]
    if exp.startswith('healthy'):
        ok=not fails; hfail[0]+=bool(fails); hfail[1]+=1
    elif exp.startswith('none yet'): ok=False
    else:
        want=exp.split()[0].strip('`'); ok=want in hits
    k='ho' if ho else 'in'; res[k][0]+=ok; res[k][1]+=1
    print(('HOLDOUT ' if ho else '        ')+('ok    ' if ok else 'MISS  ')+f+' want='+exp[:40]+' got='+','.join(sorted(set(hits)))[:120])
print('in-sample %d/%d holdout %d/%d healthy-failing %d/%d'%(res['in'][0],res['in'][1],res['ho'][0],res['ho'][1],hfail[0],hfail[1]))
