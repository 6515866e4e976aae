// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {ERC721} from "@openzeppelin/contracts/token/ERC721/ERC721.sol";
import {ERC1155} from "@openzeppelin/contracts/token/ERC1155/ERC1155.sol";

// Tokens of the three standards, built on OpenZeppelin Contracts 5.1, that anyone may mint: the
// Web3 API tests read them back through the server.

contract TestToken is ERC20 {
    uint8 private immutable places;

    constructor(string memory name_, string memory symbol_, uint8 decimals_) ERC20(name_, symbol_) {
        places = decimals_;
    }

    function decimals() public view override returns (uint8) {
        return places;
    }

    function mint(address to, uint256 value) external {
        _mint(to, value);
    }
}

contract TestNft is ERC721 {
    mapping(uint256 => string) private uris;

    constructor(string memory name_, string memory symbol_) ERC721(name_, symbol_) {}

    function mint(address to, uint256 id, string calldata uri) external {
        _mint(to, id);
        uris[id] = uri;
    }

    function setTokenURI(uint256 id, string calldata uri) external {
        uris[id] = uri;
    }

    function tokenURI(uint256 id) public view override returns (string memory) {
        _requireOwned(id);
        return uris[id];
    }
}

contract TestMulti is ERC1155 {
    constructor(string memory uri_) ERC1155(uri_) {}

    function mint(address to, uint256 id, uint256 amount) external {
        _mint(to, id, amount, "");
    }
}

// An ENS-like registry that is its own resolver: `resolver(node)` is this contract, which answers
// `addr(node)` and `name(node)` as set.
contract TestEns {
    mapping(bytes32 => address) private addrs;
    mapping(bytes32 => string) private names;

    function resolver(bytes32) external view returns (address) {
        return address(this);
    }

    function setAddr(bytes32 node, address value) external {
        addrs[node] = value;
    }

    function setName(bytes32 node, string calldata value) external {
        names[node] = value;
    }

    function addr(bytes32 node) external view returns (address) {
        return addrs[node];
    }

    function name(bytes32 node) external view returns (string memory) {
        return names[node];
    }
}
