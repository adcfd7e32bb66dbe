export OPENWORK_MCP_TOKEN="$(openssl rand -hex 32)"
/path/to/openwork/node_modules/.bin/openwork-tools mcp --http 8765 --cwd /path/to/project
