"""A new process at session 50 still recalls session 3 (file SQLite, real subprocess)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from li_support import FILLERS, PREFERENCE, START, RecordingLLM, next_session
from llama_index.core.chat_engine import SimpleChatEngine

from llama_index_usermemory import UserChatMemory
from shared_core import UserMemory
from shared_core.clock import FakeClock
from shared_core.embed import HashingEmbedder

HERE = Path(__file__).parent
ROOT = HERE.parent.parent
USER = "u_li_restart"

SESSION_50 = """
import json, sys
from datetime import datetime
from li_support import RecordingLLM
from llama_index.core.chat_engine import SimpleChatEngine
from llama_index_usermemory import UserChatMemory
from shared_core import UserMemory
from shared_core.clock import FakeClock
from shared_core.embed import HashingEmbedder

db, now, user = sys.argv[1], sys.argv[2], sys.argv[3]
core = UserMemory.from_url(f"sqlite:///{db}", embedder=HashingEmbedder(),
                           clock=FakeClock(datetime.fromisoformat(now)))
llm = RecordingLLM()
memory = UserChatMemory(memory=core, user_id=user, session_id="s50")
engine = SimpleChatEngine.from_defaults(llm=llm, memory=memory,
                                        system_prompt="You are a support agent.")
engine.chat("Like last time, don't call me, just text me. Where is my refund?")
print(json.dumps({"llm_input": llm.last_input, "sessions": sorted(
    {t for t in [memory.session_id]})}))
core.close()
"""


def test_new_process_at_session_50_recalls_session_3(tmp_path: Path) -> None:
    db = tmp_path / "memory.db"
    clock = FakeClock(START)
    llm = RecordingLLM()
    core = UserMemory.from_url(f"sqlite:///{db}", embedder=HashingEmbedder(), clock=clock)
    for n in range(1, 50):
        next_session(clock)
        memory = UserChatMemory(memory=core, user_id=USER, session_id=f"s{n:02d}")
        engine = SimpleChatEngine.from_defaults(llm=llm, memory=memory)
        engine.chat(PREFERENCE if n == 3 else FILLERS[n % len(FILLERS)])
        engine.chat("Thanks, that is all.")
        memory.reset()
    core.close()
    next_session(clock)

    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(HERE), str(ROOT)])}
    proc = subprocess.run(
        [sys.executable, "-c", SESSION_50, str(db), clock.now().isoformat(), USER],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    seen = json.loads(proc.stdout.strip().splitlines()[-1])["llm_input"]
    assert "SMS" in seen, seen
    assert "support agent" in seen
