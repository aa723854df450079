/// The HTML report's look and its few lines of script. System fonts only, no `url(...)`, no imports:
/// the page must render the same opened from disk on a machine without network.
enum HTMLStyle {
    static let css = """
        :root{--ok:#15803d;--ok-bg:#dcfce7;--fail:#b91c1c;--fail-bg:#fee2e2;--infra:#b45309;--infra-bg:#fef3c7;--skip:#6b7280;--skip-bg:#f3f4f6;--line:#e5e7eb;--muted:#6b7280;--accent:#2563eb}
        *{box-sizing:border-box}
        body{margin:0;font:14px/1.45 -apple-system,BlinkMacSystemFont,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;color:#111827;background:#f9fafb}
        code,pre,.url,.method,.file{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,"DejaVu Sans Mono",monospace}
        header.top{position:sticky;top:0;z-index:2;background:#fff;border-bottom:1px solid var(--line);padding:12px 24px}
        h1{font-size:18px;margin:0 0 2px}
        .summary{font-size:16px;font-weight:600;margin:0}
        .count.passed{color:var(--ok)}.count.failed{color:var(--fail)}.count.skipped{color:var(--skip)}
        .meta{color:var(--muted);margin:2px 0 8px;font-size:13px}
        .filters{display:flex;flex-wrap:wrap;gap:6px;align-items:center}
        .filters label,.filters button{border:1px solid #d1d5db;background:#fff;border-radius:999px;padding:3px 12px;cursor:pointer;font:inherit;font-size:13px}
        .filters label span{color:var(--muted);margin-left:2px}
        .filters input[type=search]{border:1px solid #d1d5db;border-radius:6px;padding:4px 8px;font:inherit;font-size:13px;min-width:240px}
        .filter-radio{position:absolute;opacity:0;pointer-events:none}
        #filter-all:checked~header label[for=filter-all],#filter-failed:checked~header label[for=filter-failed],#filter-skipped:checked~header label[for=filter-skipped],#filter-passed:checked~header label[for=filter-passed]{background:#111827;color:#fff;border-color:#111827}
        #filter-all:checked~header label[for=filter-all] span,#filter-failed:checked~header label[for=filter-failed] span,#filter-skipped:checked~header label[for=filter-skipped] span,#filter-passed:checked~header label[for=filter-passed] span{color:#d1d5db}
        #filter-failed:checked~main .scenario:not(.status-failed),#filter-skipped:checked~main .scenario:not(.status-skipped),#filter-passed:checked~main .scenario:not(.status-passed){display:none}
        #filter-skipped:checked~main .failure-index,#filter-passed:checked~main .failure-index{display:none}
        .scenario.no-match{display:none}
        main{padding:16px 24px;max-width:1400px}
        .failure-index{background:#fff;border:1px solid #fecaca;border-left:4px solid var(--fail);border-radius:6px;padding:8px 16px;margin-bottom:16px}
        .failure-index h2{font-size:15px;margin:4px 0;color:var(--fail)}
        .failure-index ul{margin:4px 0;padding-left:18px}
        .failure-index .reason{color:var(--muted)}
        .scenario{background:#fff;border:1px solid var(--line);border-left:4px solid var(--ok);border-radius:6px;margin:8px 0}
        .scenario.status-failed{border-left-color:var(--fail)}
        .scenario.status-failed.infra{border-left-color:var(--infra)}
        .scenario.status-skipped{border-left-color:var(--skip)}
        .scenario>summary{padding:8px 12px;cursor:pointer;display:flex;flex-wrap:wrap;gap:6px 10px;align-items:baseline}
        .scenario>summary .name{font-weight:600}
        .scenario>summary .file{color:var(--muted);font-size:12px}
        .scenario>summary .duration{color:var(--muted);font-size:12px;margin-left:auto}
        .badge{font-size:11px;font-weight:700;letter-spacing:.04em;border-radius:4px;padding:1px 6px}
        .badge.passed{background:var(--ok-bg);color:var(--ok)}
        .badge.failed{background:var(--fail-bg);color:var(--fail)}
        .badge.skipped{background:var(--skip-bg);color:var(--skip)}
        .infra .badge.failed,.badge.infra{background:var(--infra-bg);color:var(--infra)}
        .tag{display:inline-block;background:#eef2ff;color:#3730a3;border-radius:4px;padding:0 6px;margin-right:4px;font-size:12px}
        .scenario-body{padding:4px 16px 12px;border-top:1px solid var(--line)}
        .problem{border-radius:6px;padding:8px 12px;margin:10px 0}
        .problem h3{font-size:14px;margin:0 0 6px}
        .problem.promise{background:var(--fail-bg);color:#7f1d1d}
        .problem.infra{background:var(--infra-bg);color:#78350f;border:1px dashed var(--infra)}
        .problem.skipped{background:var(--skip-bg);color:#374151}
        .problem p{margin:0}
        pre{white-space:pre-wrap;word-break:break-word;margin:4px 0}
        pre.failure{font-size:13px;background:rgba(255,255,255,.6);padding:6px 8px;border-radius:4px}
        .run{border-top:1px solid var(--line);padding-top:8px;margin-top:8px}
        .run h3,.run.sub>summary{font-size:14px;font-weight:600;margin:4px 0}
        .run.sub{margin:10px 0 4px 16px;border-left:3px solid #c7d2fe;border-top:none;padding:0 0 0 12px}
        .run.sub>summary{cursor:pointer}
        .outcome.ok{color:var(--ok)}.outcome.fail,.outcome.running{color:var(--fail)}
        .status-passed .outcome.fail{color:var(--muted)}
        .flow-title{color:var(--muted);font-weight:400;font-size:13px}
        .path{margin:4px 0;font-size:13px}
        .path .arrow{color:var(--muted)}
        .step-no{display:inline-block;min-width:18px;height:18px;line-height:18px;border-radius:9px;background:var(--accent);color:#fff;font-size:11px;font-weight:700;text-align:center;margin-right:4px;padding:0 4px}
        .diagram{overflow-x:auto;margin:8px 0;padding:4px;background:#fcfcfd;border:1px solid var(--line);border-radius:6px}
        .steps{list-style:none;padding-left:0;margin:8px 0}
        .steps>li{padding:4px 0;border-bottom:1px dotted var(--line)}
        .steps .kind{color:var(--muted);font-size:12px}
        .steps .via{font-size:13px}
        .steps .guard{background:#eff6ff;padding:0 4px;border-radius:3px}
        .steps .stopped{color:var(--fail);font-weight:700}
        .false-guards{color:var(--muted);font-size:12px;margin-left:26px}
        .exchanges{margin:4px 0 2px 26px}
        .exchange{border:1px solid var(--line);border-radius:4px;margin:4px 0;background:#fff}
        .exchange>summary{cursor:pointer;padding:3px 8px;font-size:13px}
        .exchange .method{font-weight:700}
        .exchange .status{font-weight:700;border-radius:3px;padding:0 5px;margin-left:4px}
        .status.s2xx{background:var(--ok-bg);color:var(--ok)}
        .status.s3xx{background:#e0f2fe;color:#075985}
        .status.s4xx{background:var(--infra-bg);color:var(--infra)}
        .status.s5xx,.status.no-response{background:var(--fail-bg);color:var(--fail)}
        .exchange .time{color:var(--muted);font-size:12px;margin-left:6px}
        .exchange-body{display:flex;flex-wrap:wrap;gap:12px;padding:6px 8px;border-top:1px solid var(--line)}
        .half{flex:1 1 420px;min-width:0}
        .half h4{margin:2px 0;font-size:12px;text-transform:uppercase;color:var(--muted);letter-spacing:.05em}
        table.headers{border-collapse:collapse;font-size:12px;margin:2px 0 6px;width:100%}
        table.headers th{text-align:left;font-weight:600;padding:1px 8px 1px 0;white-space:nowrap;vertical-align:top;width:1%}
        table.headers td{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;word-break:break-all;padding:1px 0}
        pre.body{background:#f8fafc;border:1px solid var(--line);border-radius:4px;padding:6px 8px;font-size:12px;max-height:420px;overflow:auto}
        pre.transport{color:var(--fail)}
        .none,.note{color:var(--muted);font-size:12px;margin:2px 0}
        .empty{color:var(--muted)}
        footer{color:var(--muted);font-size:12px;padding:12px 24px 32px}
        @media print{header.top{position:static}.filters{display:none}}
        """

    /// Search box, expand/collapse all, and opening a scenario a link points to. Without script the page still
    /// works: sections open by click, the status filter is pure CSS.
    static let script = """
        (function(){
        var all=function(s){return Array.prototype.slice.call(document.querySelectorAll(s));};
        var search=document.getElementById('search');
        if(search){search.addEventListener('input',function(){var q=search.value.trim().toLowerCase();
        all('.scenario').forEach(function(s){s.classList.toggle('no-match',q!==''&&(s.getAttribute('data-search')||'').indexOf(q)===-1);});});}
        var setAll=function(open){all('details.scenario').forEach(function(d){d.open=open;});};
        var ex=document.getElementById('expand-all');if(ex){ex.addEventListener('click',function(){setAll(true);});}
        var co=document.getElementById('collapse-all');if(co){co.addEventListener('click',function(){setAll(false);});}
        var reveal=function(){var id=decodeURIComponent(location.hash.slice(1));var el=id&&document.getElementById(id);
        if(el&&el.tagName==='DETAILS'){el.open=true;el.scrollIntoView();}};
        window.addEventListener('hashchange',reveal);reveal();
        })();
        """
}
